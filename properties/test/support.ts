// What the property test files share: one test per suite against a target,
// failing with the full failure report (seed, path, shrunk script) and the
// line that replays it under npm test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { failureReport } from '../runner/failure-report.ts';
import { runProperties, type SuiteResult } from '../runner/run-properties.ts';
import { SUITE_NAMES, type SuiteName } from '../suites/index.ts';
import { referenceMemoryTarget } from '../../cli/reference-targets.ts';
import type { Target, TargetStore } from '../targets/target.ts';

/** How to replay a failure of a test file: FC_* variables, then the file. */
export function testReplay(file: string): (s: SuiteResult) => string {
  return (s) => `FC_SEED=${s.seed} FC_SUITE=${s.name} FC_PATH='${s.path}' npm test -- ${file}`;
}

export interface SuitesAgainst {
  /** Called once before the tests; the target is closed after them. */
  open(): Promise<Target>;
  /** The test file, for the replay line. */
  file: string;
  suites?: readonly SuiteName[];
}

export function describeSuitesAgainst(name: string, spec: SuitesAgainst): void {
  describe(`property suites against ${name}`, () => {
    let target: Target;
    before(async () => {
      target = await spec.open();
    });
    after(() => target?.close());
    for (const suite of spec.suites ?? SUITE_NAMES) {
      it(`${suite} holds`, async (t) => {
        const result = await runProperties({ target, suites: [suite], log: (line) => t.diagnostic(line) });
        const s = result.suites[0]!;
        assert.equal(s.status, 'pass', `\n${failureReport(s, testReplay(spec.file))}`);
        assert.ok(s.runs > 0, 'the suite ran');
      });
    }
  });
}

/** The memory reference with some of its operations replaced: a registry that makes another legal choice, or a broken one. */
export function withStore(change: (store: TargetStore) => Partial<TargetStore>): Target {
  const inner = referenceMemoryTarget();
  return {
    ...inner,
    async openRun() {
      const run = await inner.openRun();
      return { ...run, store: Object.assign(Object.create(run.store) as TargetStore, change(run.store)) };
    },
  };
}
