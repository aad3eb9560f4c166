// The run plan a load run writes holds every bearer token of the run, and the
// engine reads it from disk; it is removed when the run ends, and also when
// the process ends mid-run through a handler that exits (certify's, on
// Ctrl-C), where the run never reaches its own cleanup.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { exitMidRun } from './exit-mid-run.ts';

test('a process that exits while its load runs leaves no plan file behind', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-plan-on-exit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, 'run');
  // 130 is the exit the script makes once the plan is written: the run got that far.
  assert.equal(await exitMidRun(out), 130);
  assert.ok(!existsSync(join(out, 'run-plan.json')), 'the plan file, with its tokens, is gone');
});
