// A test's HTTP server on loopback: it listens on a free port of 127.0.0.1
// and is closed, its open connections with it, when the test ends, also when
// an assertion fails.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/** Starts `handler`; returns the server's base URL. */
export async function startLoopbackServer(t: TestContext, handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
