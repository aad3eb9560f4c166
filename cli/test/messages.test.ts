// Messages that say what to do, and the conventions users bring from curl,
// Schemathesis and k6: -H for a header, a case list, "did you mean".
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseFlags } from '../args.ts';
import { tokenCommandCredentials } from '../../client/credential-sources.ts';
import { loadSigner, writeBundle } from '../../reports/bundle/bundle.ts';
import { sampleCouldNotRun } from '../../reports/test/sample-documents.ts';

/** Runs `fn` with console.log and console.error captured. */
async function captured<T>(fn: () => Promise<T>): Promise<{ value: T; out: string; err: string }> {
  const { log, error } = console;
  let out = '';
  let err = '';
  console.log = (...a: unknown[]) => void (out += a.join(' ') + '\n');
  console.error = (...a: unknown[]) => void (err += a.join(' ') + '\n');
  try {
    return { value: await fn(), out, err };
  } finally {
    Object.assign(console, { log, error });
  }
}

test('-H is --header, as in curl and Schemathesis', async () => {
  const { FLAGS } = await import('../flags/load.ts');
  const parsed = parseFlags('load', '', FLAGS, ['-H', 'X-Api-Key: a', '--header', 'X-Other: b'], { env: {}, announce: () => {} });
  assert.deepEqual(parsed!.values.header, ['X-Api-Key: a', 'X-Other: b']);
});

test('a token command that is not on PATH says so', async () => {
  const credentials = tokenCommandCredentials('fleetproof-no-such-program --tenant {tenant}');
  await assert.rejects(credentials.authorize({ roles: ['registry:reader'], tenant: 't1' }), /fleetproof-no-such-program: not on PATH/);
  const byPath = tokenCommandCredentials('/nonexistent/issue-token {tenant}');
  await assert.rejects(byPath.authorize({ roles: [], tenant: 't1' }), /no such file; check the path/);
});

test('an unknown role names the nearest one and lists them all', async () => {
  const { run } = await import('../token.ts');
  await assert.rejects(run(['--key', 'k.json', '--roles', 'registry:dispach']), (err: Error) => {
    assert.match(err.message, /unknown role registry:dispach; did you mean registry:dispatch\? \(known: registry:admin, /);
    return true;
  });
});

test('serve on a busy port suggests --port 0', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const { run } = await import('../serve.ts');
  const { value, err } = await captured(() => run(['--port', String(port), '--store', 'memory']));
  assert.equal(value, 2);
  assert.match(err, /port is in use; .*--port 0 for a free one/);
});

test('conform --list prints every case with its clause and category, as text or JSON', async () => {
  const { run } = await import('../conform.ts');
  const text = await captured(() => run(['--list']));
  assert.equal(text.value, 0);
  const lines = text.out.trim().split('\n');
  assert.ok(lines.length > 100, `${lines.length} cases`);
  assert.match(text.out, /^operations\/health-answers-without-a-token +\[[a-z0-9-]+\] +operations$/m);
  const json = await captured(() => run(['--list', '--json']));
  const cases = JSON.parse(json.out) as { id: string; clause: string; category: string }[];
  assert.equal(cases.length, lines.length);
  for (const c of cases) assert.ok(c.clause !== '' && c.id.startsWith(`${c.category}/`), c.id);
  // With a selection, the cases a run of it would select: each of its categories, and each case it names.
  const health = 'operations/health-answers-without-a-token';
  const some = await captured(() => run(['--list', '--json', '--category', 'catalog', '--case', health]));
  const listed = (JSON.parse(some.out) as { id: string; category: string }[]).map((c) => c.id);
  const catalog = cases.filter((c) => c.category === 'catalog').map((c) => c.id);
  assert.ok(catalog.length > 0);
  assert.deepEqual(listed.sort(), [...catalog, health].sort());
  await assert.rejects(
    captured(() => run(['--list', '--category', 'catalogue'])),
    /did you mean catalog/,
  );
});

test('an unknown case id or category gets a "did you mean" before anything runs', async () => {
  const { run } = await import('../conform.ts');
  const target = ['--target', 'http://127.0.0.1:1', '--key', 'k.json'];
  await assert.rejects(
    captured(() => run([...target, '--case', 'operations/health-answers-without-token'])),
    /no such case operations\/health-answers-without-token; did you mean operations\/health-answers-without-a-token\?/,
  );
  await assert.rejects(
    captured(() => run([...target, '--category', 'operaions'])),
    /unknown category operaions; did you mean operations\?/,
  );
});

test('a verdict line listing every clause is summarised on the terminal and points at the report', async () => {
  const { summarised } = await import('../certify.ts');
  const clauses = Array.from({ length: 123 }, (_, i) => `[clause-${i}]`);
  const line = `MUST clauses no check exercised: ${clauses.join(', ')} (the conformance stage could not run)`;
  const short = summarised(line, 'reports/runs/r/report.md');
  assert.equal(
    short,
    'MUST clauses no check exercised: 123 clauses ([clause-0], [clause-1], [clause-2], …); each with its reason in reports/runs/r/report.md',
  );
  assert.equal(summarised('every MUST clause was exercised', 'r.md'), 'every MUST clause was exercised', 'a short line stays as it is');
});

test('verify names the signed verdict in the reports’ words', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-verify-words-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const result = sampleCouldNotRun();
  await writeFile(join(dir, 'result.json'), JSON.stringify(result));
  const bundle = await writeBundle(
    dir,
    ['result.json'],
    {
      verdict: result.verdict,
      harness: result.harness,
      contract: 'fleetproof-registry/v1',
      target: { url: null, implementation: { name: 'test', version: '1' } },
      profile: 'smoke',
      run_id: result.run_id,
      finished_at: result.finished_at,
    },
    await loadSigner(),
  );
  const { run } = await import('../verify.ts');
  const verified = await captured(() => run([bundle]));
  assert.equal(verified.value, 0, verified.out);
  assert.match(verified.out, /^verified: the signed verdict is COULD NOT RUN$/m);
});

test('a value that starts with a dash is asked for as --flag=VALUE, in one line', async () => {
  const { FLAGS } = await import('../flags/properties.ts');
  assert.throws(
    () => parseFlags('properties', '', FLAGS, ['--runs', '-1'], { env: {}, announce: () => {} }),
    /^UsageError: --runs takes a value, and what follows it starts with a dash: write --runs=VALUE; run `fleetproof properties --help` for the options$/,
  );
  const load = await import('../flags/load.ts');
  assert.throws(
    () => parseFlags('load', '', load.FLAGS, ['-H', '-x'], { env: {}, announce: () => {} }),
    /-H takes a value, and what follows it starts with a dash: write --header=VALUE;/,
  );
});
