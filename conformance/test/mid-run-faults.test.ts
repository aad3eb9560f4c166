// A target that goes away, or starts refusing the tokens it accepted at
// preflight, in the middle of a run: the case that saw it ends in error, not
// fail, and the run could not judge (exit 2). The same failure against a
// target that still answers stays a failure. A loopback proxy in front of
// the reference turns after the case's request.
import assert from 'node:assert/strict';
import { createServer, request as forward, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';

const casesRoot = fileURLToPath(new URL('./fixtures/cases/', import.meta.url));
type Turn = 'nothing' | 'refuse-tokens' | 'go-away';

/** Forwards to `upstream`; after the first GET /ready (the fixture case's request) it does what `turn` says. */
async function proxy(upstream: string, turn: Turn): Promise<{ url: string; close(): Promise<void> }> {
  let turned = false;
  const server: Server = createServer((req, res) => {
    if (turned && turn === 'refuse-tokens' && req.headers.authorization) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'key rotated' } }));
      return;
    }
    const out = forward(new URL(req.url!, upstream), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
      if (req.url === '/ready' && !turned) {
        turned = true;
        if (turn === 'go-away') res.on('finish', goAway);
      }
    });
    req.pipe(out);
  });
  const goAway = () => {
    server.close();
    server.closeAllConnections();
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

let target: ReferenceTarget;
before(async () => {
  target = await startReferenceTarget({ silent: true });
});
after(() => target.close());

async function runThrough(turn: Turn) {
  const front = await proxy(target.url, turn);
  try {
    return await runConformance({
      config: target.config({ target: front.url, cases: ['operations/fails'], timeoutMs: 2000 }),
      signingKey: target.key,
      casesRoot,
      writeReports: false,
    });
  } finally {
    await front.close();
  }
}

describe('faults in the middle of a run', () => {
  it('a failure seen while the target still answers stays a failure', async () => {
    const outcome = await runThrough('nothing');
    assert.deepEqual([outcome.exitCode, outcome.result!.verdict, outcome.result!.cases[0]!.status], [1, 'non-conformant', 'fail']);
  });

  it('a target killed during the run: error, and the run could not judge', async () => {
    const outcome = await runThrough('go-away');
    const c = outcome.result!.cases[0]!;
    assert.deepEqual([outcome.exitCode, outcome.result!.verdict, c.status], [2, 'could-not-judge', 'error']);
    assert.match(c.message!, /^no verdict: after this case the target \S+ does not answer/);
  });

  it('a target that starts refusing the tokens it accepted at preflight: error, not fail', async () => {
    const outcome = await runThrough('refuse-tokens');
    const c = outcome.result!.cases[0]!;
    assert.deepEqual([outcome.exitCode, c.status], [2, 'error']);
    assert.match(c.message!, /^no verdict: after this case the target refused a token signed with kid=/);
  });
});
