// A loopback server for the hard-end tests: it never answers /hang, answers
// everything else, and records which /hang requests were still open when
// /teardown arrived, so a test can tell whether an interrupted iteration's
// request was cancelled (its connection closed) before the teardown ran.
import type { IncomingMessage } from 'node:http';
import type { TestContext } from 'node:test';
import { startLoopbackServer } from './loopback-server.ts';

export interface HangingServer {
  base: string;
  /** Every request's path, in arrival order. */
  paths: string[];
  /** /hang requests still open when /teardown arrived; null if it never did. */
  openAtTeardown(): number | null;
}

/** Starts the server; it is closed, its connections with it, when the test ends. */
export async function startHangingServer(t: TestContext): Promise<HangingServer> {
  const open = new Set<IncomingMessage>();
  const paths: string[] = [];
  let openAtTeardown: number | null = null;
  const base = await startLoopbackServer(t, (req, res) => {
    paths.push(req.url ?? '');
    if (req.url === '/hang') {
      open.add(req);
      req.socket.once('close', () => open.delete(req));
    } else {
      if (req.url === '/teardown') openAtTeardown = open.size;
      res.end('ok');
    }
  });
  return { base, paths, openAtTeardown: () => openAtTeardown };
}
