// A distributed run end to end, as k6-operator would run it: one shared plan
// (`fleetproof load --write-plan`), a part run on it (`--plan`, which leaves
// the audit and the retirement alone), its output split between two
// instances' directories, and `fleetproof report --merge --plan`, which
// audits the target once over every part's routes. A route the run's tenant
// still holds at the merge fails the audit; settled, the merge passes and
// retires the run. Only the seed and the concurrent routing phase run.
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../cli/main.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { LoadReport } from '../runner/load-report.ts';
import type { MergedReport } from '../merge/merge-runs.ts';
import { parseJournal } from '../runner/journal.ts';
import { tenantId, type RunPlan } from '../runner/run-plan.ts';
import { startTarget } from './in-process-target.ts';

/** Alternate lines between two instances; every instance declares every metric. */
function splitLines(text: string, declaration: (line: string) => boolean): [string, string] {
  const out: [string[], string[]] = [[], []];
  text.split('\n').filter(Boolean).forEach((line, k) => {
    if (declaration(line)) out.forEach((o) => o.push(line));
    else out[k % 2]!.push(line);
  });
  return [out[0].join('\n') + '\n', out[1].join('\n') + '\n'];
}

test('a distributed run shares one plan, and its merge audits the target over every part', async (t) => {
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  const planFile = join(target.dir, 'run-plan.json');
  const cli = (...args: string[]) => main(args);
  assert.equal(await cli('load', '--write-plan', planFile, '--target', target.url, '--key', target.keyPath, '--profile', 'smoke', '--phases', 'concurrent_routes'), 0);
  assert.equal((await stat(planFile)).mode & 0o077, 0, 'the plan holds bearer tokens: private to its owner');
  const plan = JSON.parse(await readFile(planFile, 'utf8')) as RunPlan;
  assert.equal(await cli('load', '--plan', planFile, '--target', target.url), 2, 'the plan fixes the target');

  const partDir = join(target.dir, 'part');
  assert.equal(await cli('load', '--plan', planFile, '--engine', 'node', '--out', partDir, '--quiet'), 0);
  const part = JSON.parse(await readFile(join(partDir, 'summary.json'), 'utf8')) as LoadReport;
  assert.equal(part.run_id, plan.run_id);
  assert.equal(part.audit, null, 'a part leaves the audit to the merge');
  assert.equal(part.retirement, null);
  assert.ok(part.routes_seen > 0);

  const instances = [join(target.dir, 'instance-a'), join(target.dir, 'instance-b')];
  const metrics = splitLines(await readFile(join(partDir, 'metrics.ndjson'), 'utf8'), (l) => l.includes('"type":"Metric"'));
  const journalText = await readFile(join(partDir, 'journal.ndjson'), 'utf8');
  const journals = splitLines(journalText, () => false);
  for (const [k, dir] of instances.entries()) {
    await mkdir(dir);
    await writeFile(join(dir, 'metrics.ndjson'), metrics[k]!);
    await writeFile(join(dir, 'journal.ndjson'), journals[k]!);
    await writeFile(join(dir, 'engine-summary.json'), await readFile(join(partDir, 'engine-summary.json')));
  }

  // A route of the run's first routed tenant, resolved and still held.
  const seen = [...parseJournal(journalText).routes.values()][0]!;
  const token = plan.tokens.tenants[plan.tokens.tenants.findIndex((_, k) => tenantId(plan.run_id, k + 1) === seen.tenant_id)]!;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(new URL(path, target.url), { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: (await res.json()) as { assignment: { capability_id: string } } };
  };
  const capability = (await call('GET', `/v1/routes/${seen.action_id}`)).body.assignment.capability_id;
  const held = await call('POST', '/v1/routes', { action_id: `${seen.action_id}-held`, capability_id: capability });
  assert.equal(held.status, 200);

  const otherPlan = join(target.dir, 'other-plan.json');
  assert.equal(await cli('load', '--write-plan', otherPlan, '--target', target.url, '--key', target.keyPath, '--profile', 'smoke'), 0);
  assert.equal(await cli('report', '--merge', ...instances, '--plan', otherPlan, '--out', join(target.dir, 'refused')), 2, 'the plan of another run');

  const merged = async (out: string) => JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as MergedReport;
  const first = join(target.dir, 'merged-held');
  assert.equal(await cli('report', '--merge', ...instances, '--plan', planFile, '--keep-data', '--out', first), 1);
  const failed = (await merged(first)).audit!;
  const atBaseline = failed.invariants.find((i) => i.id === 'replicas_at_baseline')!;
  assert.equal(atBaseline.ok, false, 'the held route keeps a unit of its replica');
  assert.match(atBaseline.examples[0]!, /has 1 active assignments/);

  assert.equal((await call('POST', `/v1/routes/${seen.action_id}-held/settlement`, { assignment: held.body.assignment, outcome: 'completed' })).status, 200);
  const second = join(target.dir, 'merged');
  assert.equal(await cli('report', '--merge', ...instances, '--plan', planFile, '--out', second), 0);
  const report = await merged(second);
  assert.equal(report.verdict, 'pass', report.reasons.join('\n'));
  assert.equal(report.routes_seen, part.routes_seen, 'the merge joined both journals');
  assert.ok(report.audit!.invariants.every((i) => i.ok && i.checked > 0), 'every invariant was checked on something');
  assert.equal(report.audit!.invariants.find((i) => i.id === 'routes_pinned')!.checked, part.routes_seen);
  assert.ok(report.retirement && report.retirement.types_disabled > 0, 'the merge retired the run');
  assert.ok(report.merge.notes.includes('audited after the merge, over the routes of every part'));
});
