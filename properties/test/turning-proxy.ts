// A loopback proxy in front of a registry that turns after a number of
// requests, so a run meets a setup that changes under it: the target stops
// taking the run's tokens (every authenticated request is refused with 401,
// as after a key rotation), or the registry goes away behind its ingress
// (every request gets the ingress's own 502 page). Neither is the
// registry's fault.
import { createServer, request as forward, type Server } from 'node:http';

export type Turn = 'refuse-tokens' | 'gateway-down';

/** Forwards to `upstream`; after `turnAfter` requests it answers as `turn` says. */
export async function turningProxy(
  upstream: string,
  turnAfter: number,
  turn: Turn = 'refuse-tokens',
): Promise<{ url: string; close(): Promise<void> }> {
  let seen = 0;
  const server: Server = createServer((req, res) => {
    if (++seen > turnAfter && turn === 'gateway-down') {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    if (seen > turnAfter && req.headers.authorization) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'unknown key' } }));
      return;
    }
    const out = forward(new URL(req.url!, upstream), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
