// The Node runner's HTTP (http-service.ts, undici in the runner's thread)
// against a real server: responses framed every way HTTP/1.1 allows,
// connections reused, replaced after a close, and abandoned after a
// timeout, and failures given k6's error codes.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runWithNodeEngine } from '../engine.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/connections.js', import.meta.url));

/** Answers by path; tells the client which connection carried each request. */
function registryLike(): Server {
  const ids = new WeakMap<Socket, number>();
  let next = 0;
  return createServer((req, res: ServerResponse) => {
    if (!ids.has(req.socket)) ids.set(req.socket, ++next);
    res.setHeader('x-connection', String(ids.get(req.socket)));
    if (req.url === '/close') res.setHeader('connection', 'close');
    if (req.url === '/chunked') {
      res.write('one,');
      setTimeout(() => res.end('two'), 20);
    } else if (req.url === '/big') res.end('x'.repeat(1_000_000));
    else if (req.url === '/no-content') res.writeHead(204).end();
    else if (req.url === '/echo') req.setEncoding('utf8').on('data', (d: string) => res.end(`${req.method} ${d}`));
    else if (req.url === '/ends-idle') res.end('bye', () => setTimeout(() => req.socket.end(), 20));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000).unref();
    else res.end('kept');
  });
}

/** HTTP/1.0 without a length, and bytes that are no HTTP response. */
function rawServer(): Server {
  return createNetServer((socket) => {
    socket.once('data', (chunk) => {
      if (chunk.toString('latin1').startsWith('GET /until-close'))
        socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end');
      else socket.end('HELLO THERE\r\n\r\n');
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('the Node runner frames responses, reuses and replaces connections, and reports failures as k6 does', async (t) => {
  const servers = [registryLike(), rawServer()];
  const [base, raw] = await Promise.all(servers.map(listen));
  const closed = createNetServer();
  const refused = await listen(closed);
  await new Promise<void>((r) => closed.close(() => r()));
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-http-'));
  t.after(async () => {
    for (const s of servers) {
      (s as ReturnType<typeof createServer>).closeAllConnections?.();
      s.close();
    }
    await rm(dir, { recursive: true, force: true });
  });
  const consoleOutput = join(dir, 'console.log');
  const result = await runWithNodeEngine({
    scriptPath: FIXTURE,
    env: { BASE: base!, RAW: raw!, REFUSED: `${refused}/` },
    consoleOutput,
    progress: () => {},
  });
  assert.equal(result.error, null);
  const lines = (await readFile(consoleOutput, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { step: string; status: number; error_code: number; connection: string | null; body: string });
  const at = (step: string) => lines.filter((l) => l.step === step);

  const keep = at('keep');
  assert.deepEqual(
    keep.map((l) => [l.status, l.body]),
    Array.from({ length: 10 }, () => [200, 'kept']),
  );
  // undici's pool may open a second connection when the first is not yet marked free: reuse, not one connection, is the rule.
  assert.ok(
    new Set(keep.map((l) => l.connection)).size < keep.length / 2,
    `ten requests in a row reuse keep-alive connections: ${keep.map((l) => l.connection).join(',')}`,
  );
  assert.notEqual(at('after-close')[0]!.connection, at('close')[0]!.connection, 'a response with Connection: close ends its connection');
  assert.deepEqual(at('chunked')[0], { ...at('chunked')[0]!, status: 200, body: 'one,two' });
  assert.equal(at('big')[0]!.body, '1000000 bytes');
  assert.deepEqual([at('head')[0]!.status, at('head')[0]!.body], [200, '']);
  assert.deepEqual([at('no-content')[0]!.status, at('no-content')[0]!.body], [204, '']);
  assert.equal(at('post')[0]!.body, 'POST a body');
  // The server closed the connection after answering: the next request goes out on a new one and succeeds.
  assert.deepEqual([at('after-idle-end')[0]!.status, at('after-idle-end')[0]!.body], [200, 'kept']);
  assert.notEqual(at('after-idle-end')[0]!.connection, at('ends-idle')[0]!.connection);
  assert.deepEqual([at('timeout')[0]!.status, at('timeout')[0]!.error_code], [0, 1050]);
  assert.notEqual(at('after-timeout')[0]!.connection, at('timeout')[0]!.connection, 'a timed-out exchange leaves its connection unused');
  assert.equal(at('after-timeout')[0]!.status, 200);
  assert.deepEqual([at('refused')[0]!.status, at('refused')[0]!.error_code], [0, 1212]);
  assert.deepEqual([at('until-close')[0]!.status, at('until-close')[0]!.body], [200, 'to the end']);
  assert.equal(at('garbage')[0]!.status, 0, 'bytes that are no HTTP response are an error, not a response');
  assert.ok(at('garbage')[0]!.error_code >= 1000);
});
