// Before a run retires its data it sends each failure's exchange once more
// and records whether it reproduced, without moving the verdict; a replay
// that cannot be made as recorded says why, one that gets another answer or
// none says so. `--keep-data` leaves the run's records on the target, listed
// beside the result with the command that retires them, and `conform
// --retire DIR` retires them later: the replicas the run kept go offline.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpTransport } from '../../client/http-transport.ts';
import type { Exchange } from '../../client/exchange.ts';
import { main } from '../../cli/main.ts';
import { KEPT_RECORDS_FILE } from '../runner/kept-data.ts';
import { terminalProgress } from '../runner/progress.ts';
import { replayExchange } from '../runner/replay.ts';
import { runConformance } from '../runner/run.ts';
import type { ConformanceResult } from '../runner/result.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';
import { resultSchemaProblems } from './result-schema.ts';

const CASE = 'settlement/altered-fence-token-is-fence-lost';
let target: ReferenceTarget;
let dir: string;

before(async () => {
  target = await startReferenceTarget({ defect: 'settle-skip-fence', silent: true });
  dir = await mkdtemp(join(tmpdir(), 'fleetproof-replay-'));
});
after(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

describe('replaying failures before retirement', () => {
  it('records that a failure reproduced, and leaves the verdict as the case gave it', async () => {
    const outcome = await runConformance({ config: target.config({ cases: [CASE] }), signingKey: target.key, writeReports: false });
    const c = outcome.result!.cases[0]!;
    assert.deepEqual([c.status, outcome.result!.verdict, outcome.result!.retirement.status], ['fail', 'non-conformant', 'retired']);
    assert.deepEqual(c.replay, { outcome: 'reproduced', status: 200, code: null, note: null });
    assert.equal(c.clause_text?.startsWith('The registry compares the presented assignment'), true, 'the clause it broke, quoted');
    assert.equal(resultSchemaProblems(outcome.result), null);
  });

  it('says in a log how many failures it replayed and how many records it retired', async () => {
    let log = '';
    const progress = terminalProgress({ write: (text: string) => (log += text) }, false);
    await runConformance({ config: target.config({ cases: [CASE] }), signingKey: target.key, writeReports: false, progress });
    assert.match(log, /^ {3}replaying failures: 1 failure in \d/m, log);
    const retired = /^ {3}retiring run data: (\d+) records? in \d/m.exec(log);
    assert.ok(retired && Number(retired[1]) > 0, log);
  });

  it('says when a replay got another answer, none, or could not be made as recorded', async (t) => {
    let answer: (res: ServerResponse) => void = (res) =>
      res.writeHead(409, { 'content-type': 'application/json' }).end('{"error":{"code":"FENCE_LOST","message":"x"}}');
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['content-type']} ${req.headers.authorization ? 'token' : 'no token'}`);
      req.resume();
      answer(res);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const transport = new HttpTransport({ baseUrl: url, timeoutMs: 300 });
    t.after(async () => {
      await transport.close();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    });
    const exchange: Exchange = {
      request: {
        method: 'POST',
        url: `${url}/v1/routes/a1/settlement`,
        headers: { 'content-type': 'application/json' },
        caller: null,
        body: { text: '{"outcome":"completed"}', bytes: 23, truncated: false },
      },
      response: { status: 200, headers: {}, body: { text: '{}', bytes: 2, truncated: false } },
      started_at: new Date().toISOString(),
      duration_ms: 3,
    };
    assert.deepEqual(await replayExchange(exchange, transport), {
      outcome: 'differed',
      status: 409,
      code: 'FENCE_LOST',
      note: 'the run saw 200',
    });
    assert.deepEqual(seen, ['POST /v1/routes/a1/settlement application/json no token'], 'sent as recorded');
    answer = () => {}; // never answers: the transport's deadline ends the replay
    const silent = await replayExchange(exchange, transport);
    assert.equal(silent.outcome, 'no-answer');
    const forged = { ...exchange, request: { ...exchange.request, caller: { roles: [], tenant: null, note: 'expired' } } };
    assert.match((await replayExchange(forged, transport)).note!, /token that was expired/);
    const cut = { ...exchange, request: { ...exchange.request, body: { text: '{"a', bytes: 900_000, truncated: true } } };
    assert.equal((await replayExchange(cut, transport)).outcome, 'not-replayed');
    assert.equal(seen.length, 2, 'nothing sent for what cannot be replayed as recorded');
  });
});

describe('--keep-data and --retire', () => {
  it('keeps the records, lists them with the command that retires them, and --retire retires them', async () => {
    const out = join(dir, 'kept');
    const key = ['--target', target.url, '--key', target.keyPath];
    assert.equal(await main(['conform', ...key, '--case', CASE, '--keep-data', '--report-dir', out]), 1);
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ConformanceResult;
    assert.equal(result.retirement.status, 'not_run');
    assert.equal(result.kept_data?.records, KEPT_RECORDS_FILE);
    assert.match(result.kept_data!.retire, new RegExp(`^npx fleetproof conform --retire ${out} --target ${target.url} --key `));
    assert.match(result.rerun!, /--case settlement\/altered-fence-token-is-fence-lost --keep-data$/);
    const kept = JSON.parse(await readFile(join(out, KEPT_RECORDS_FILE), 'utf8')) as { replicas: string[] };
    assert.ok(kept.replicas.length > 0);
    const status = async () => Promise.all(kept.replicas.map(async (id) => (await target.store.getReplica(id))?.status));
    assert.ok(
      (await status()).some((s) => s !== 'offline'),
      'the replicas stay as the case left them',
    );
    assert.match(await readFile(join(out, 'report.html'), 'utf8'), /The run kept its data/);

    assert.equal(await main(['conform', '--retire', out, ...key]), 0);
    assert.deepEqual(new Set(await status()), new Set(['offline']));
    assert.equal(await main(['conform', '--retire', out, '--target', 'http://127.0.0.1:9', '--key', target.keyPath]), 2, 'another target');
  });
});
