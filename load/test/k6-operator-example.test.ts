// The k6-operator example (load/k6-operator/testrun.yaml) holds together:
// its script and output paths are the ones fleetproof's scripts and merge
// use, the run plan comes from a Secret, and, with k6 on PATH, the runner
// command the operator builds from it — k6 run with each runner's segment
// and the TestRun's arguments, paths mapped to a temporary directory — runs
// a two-part run whose directories `fleetproof report --merge --plan`
// makes into one passing, audited verdict.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { main } from '../../cli/main.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { MergedReport } from '../merge/merge-runs.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const k6 = k6ForTests();

interface TestRun {
  kind: string;
  spec: {
    parallelism: number;
    script: { volumeClaim: { name: string; file: string } };
    arguments: string;
    runner: {
      volumes: { name: string; secret?: { secretName: string }; persistentVolumeClaim?: { claimName: string } }[];
      volumeMounts: { name: string; mountPath: string }[];
    };
  };
}

async function readTestRun(): Promise<TestRun> {
  const docs = parseAllDocuments(await readFile(join(ROOT, 'load/k6-operator/testrun.yaml'), 'utf8'));
  return docs[0]!.toJS() as TestRun;
}

/** k6's exit code for the command a runner pod runs. */
function runK6(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('k6', args, { cwd: ROOT, stdio: 'ignore' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(127));
  });
}

test('the k6-operator TestRun runs the scripts on the plan from a Secret and writes what the merge reads', async () => {
  const run = await readTestRun();
  assert.equal(run.kind, 'TestRun');
  assert.equal(run.spec.script.volumeClaim.file, 'load/scale.js', 'the claim holds the repository layout: load/ beside contract/');
  await readFile(join(ROOT, run.spec.script.volumeClaim.file));
  const mountOf = (name: string) => run.spec.runner.volumeMounts.find((m) => m.name === name)!.mountPath;
  const planVolume = run.spec.runner.volumes.find((v) => v.secret)!;
  assert.match(
    run.spec.arguments,
    new RegExp(`-e FLEETPROOF_RUN_FILE=${mountOf(planVolume.name)}/run-plan.json`),
    'the plan, with its tokens, comes from the Secret',
  );
  const out = mountOf(run.spec.runner.volumes.find((v) => v.persistentVolumeClaim)!.name);
  for (const file of ['engine-summary.json', 'metrics.ndjson', 'journal.ndjson'])
    assert.ok(run.spec.arguments.includes(`${out}/$(POD_NAME)/${file}`), `${file} in the runner's own directory`);
});

test('the runner command the operator builds from the TestRun makes parts that merge into one verdict', { skip: k6.skip }, async (t) => {
  k6.version();
  const run = await readTestRun();
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  const planFile = join(target.dir, 'run-plan.json');
  assert.equal(
    await main([
      'load',
      '--write-plan',
      planFile,
      '--target',
      target.url,
      '--key',
      target.keyPath,
      '--profile',
      'smoke',
      '--phases',
      'concurrent_routes,sustained_routes',
    ]),
    0,
  );
  const n = run.spec.parallelism;
  const sequence = Array.from({ length: n + 1 }, (_, k) => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`));
  const dirs: string[] = [];
  const codes = await Promise.all(
    Array.from({ length: n }, async (_, k) => {
      const pod = `fleetproof-load-${k + 1}`;
      const dir = join(target.dir, 'out', pod);
      dirs.push(dir);
      await mkdir(dir, { recursive: true });
      const args = run.spec.arguments
        .replaceAll('$(POD_NAME)', pod)
        .replaceAll('/plan/run-plan.json', planFile)
        .replaceAll('/out/', `${join(target.dir, 'out')}/`)
        .split(/\s+/)
        .filter(Boolean);
      return runK6([
        'run',
        '--quiet',
        ...args,
        `--execution-segment=${sequence[k]}:${sequence[k + 1]}`,
        `--execution-segment-sequence=${sequence.join(',')}`,
        join(ROOT, run.spec.script.volumeClaim.file),
      ]);
    }),
  );
  assert.ok(
    codes.every((c) => c === 0 || c === 99),
    `k6 exit codes ${codes.join(', ')}`,
  );
  const merged = join(target.dir, 'merged');
  assert.equal(await main(['report', '--merge', ...dirs, '--plan', planFile, '--out', merged]), 0);
  const report = JSON.parse(await readFile(join(merged, 'summary.json'), 'utf8')) as MergedReport;
  assert.equal(report.verdict, 'pass', report.reasons.join('\n'));
  assert.equal(report.merge.coverage, '1', 'every part said its segment');
  assert.deepEqual(report.merge.parts.map((p) => p.execution_segment).sort(), ['0:1/2', '1/2:1']);
  assert.ok(report.audit!.invariants.every((i) => i.ok && i.checked > 0));
});
