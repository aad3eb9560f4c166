// A loopback proxy in front of a registry for the load tests: it forwards
// every request, except that `turn` may answer one itself (a registry that
// cannot take the seed), forward it and change the status of the answer
// (a registry whose answers a threshold counts as unexpected), or forward
// it and pass the answer on only `holdMs` later (the registry acted; a
// phase whose budget ends first never hears it; closing the front drops
// what it still holds), or drop the connection without an answer (a
// target that went away).
import { createServer, request as forward, type IncomingMessage } from 'node:http';

export type Turn = (
  req: IncomingMessage,
  body: string,
) => { answer: number; code: string } | { status: number } | { holdMs: number } | { drop: true } | null;

export async function startFront(upstream: string, turn: Turn): Promise<{ url: string; close(): Promise<void> }> {
  const holds = new Set<NodeJS.Timeout>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const change = turn(req, body.toString('utf8'));
    if (change && 'drop' in change) {
      res.destroy();
      return;
    }
    if (change && 'answer' in change) {
      res
        .writeHead(change.answer, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: change.code, message: 'from the test front' } }));
      return;
    }
    const out = forward(new URL(req.url!, upstream), { method: req.method, headers: req.headers }, (answer) => {
      const pass = () => {
        res.writeHead(change && 'status' in change ? change.status : answer.statusCode!, answer.headers);
        answer.pipe(res);
      };
      if (change && 'holdMs' in change) {
        const hold = setTimeout(() => (holds.delete(hold), pass()), change.holdMs);
        holds.add(hold);
      } else pass();
    });
    out.on('error', () => res.destroy());
    out.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const hold of holds) clearTimeout(hold);
        server.closeAllConnections();
      }),
  };
}

/** A `k6` for PATH that reports a version and crashes on `k6 run`, as an engine that dies mid-run does. */
export const CRASHING_K6 = `#!/bin/sh
if [ "$1" = version ]; then echo "k6 v1.3.0 (linux/amd64)"; exit 0; fi
kill -SEGV $$
`;
