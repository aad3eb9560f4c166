// Stage 2: the property suites over HTTP against the same target, with a
// seed printed and recorded so every counterexample replays exactly.
import { join } from 'node:path';
import { resultDocument, writeResultDocument } from '../../properties/runner/result-document.ts';
import { runProperties, type SuiteResult } from '../../properties/runner/run-properties.ts';
import { propertiesProgress } from '../../properties/runner/progress.ts';
import { httpTarget } from '../../properties/targets/http-target.ts';
import { propertiesBudgetMs } from '../../properties/runner/budget.ts';
import { SUITE_NAMES } from '../../properties/suites/index.ts';
import { Budget } from '../../client/stage-budget.ts';
import { writePropertiesReports } from '../../reports/properties/write.ts';
import type { Failure } from '../../reports/schemas/certification-result.ts';
import { PROPERTY_CLAUSES } from '../property-clauses.ts';
import { propertiesStatus } from '../verdict.ts';
import { elapsed, stageRecheck, type ClauseEvidence, type StageContext, type StageOutput } from './stage.ts';

const STATUS_OF = { pass: 'pass', fail: 'fail', error: 'error' } as const;

export async function propertiesStage(ctx: StageContext): Promise<StageOutput> {
  const started = performance.now();
  const replay = (s: SuiteResult) => `npx fleetproof properties ${ctx.targetFlags} --suite ${s.name} --seed=${s.seed} --path '${s.path}'`;
  const budget = new Budget('properties', ctx.budgets?.properties ?? propertiesBudgetMs('http', SUITE_NAMES));
  let target;
  try {
    target = await httpTarget({
      url: ctx.targetUrl,
      key: ctx.key,
      runId: ctx.runId,
      signal: budget.signal,
      ...(ctx.auth ? { auth: ctx.auth } : {}),
    });
  } catch (err) {
    budget.stop();
    return {
      record: {
        name: 'properties',
        status: 'could-not-run',
        reasons: [`cannot open the target: ${(err as Error).message}`],
        duration_ms: elapsed(started),
        result_file: null,
        figures: {},
      },
      evidence: [],
      failures: [],
    };
  }
  try {
    // As `fleetproof properties` does: a suite that fails while the target has gone away or stopped taking the run's tokens could not judge.
    const stillJudgeable = stageRecheck(ctx);
    const result = await runProperties({
      target,
      log: ctx.log,
      runId: ctx.runId,
      stillJudgeable,
      budget,
      progress: propertiesProgress(),
    });
    const doc = await resultDocument(result, replay, `npx fleetproof properties ${ctx.targetFlags} --seed=${result.seed.seed}`);
    await writeResultDocument(join(ctx.out, 'properties'), doc);
    await writePropertiesReports(join(ctx.out, 'properties'), doc);
    const evidence: ClauseEvidence[] = result.suites.flatMap((s) =>
      PROPERTY_CLAUSES[s.name].map((clause) => ({ clause, kind: 'property' as const, id: s.name, status: STATUS_OF[s.status] })),
    );
    const failures: Failure[] = result.suites
      .filter((s) => s.status !== 'pass')
      .map((s) => ({
        stage: 'properties',
        subject: s.name,
        clause: PROPERTY_CLAUSES[s.name][0] ?? null,
        message:
          s.status === 'fail' && s.violation
            ? `${s.violation.property}: ${s.violation.message}`
            : `could not judge: ${s.error ?? 'unknown'}`,
        reproduce: s.path
          ? `${replay(s)}\n${(s.counterexample ?? []).join('\n')}`
          : `npx fleetproof properties ${ctx.targetFlags} --suite ${s.name} --seed=${s.seed}`,
      }));
    const status = propertiesStatus(doc);
    const reasons = [
      ...(result.unfinished !== null ? [result.unfinished] : []),
      ...result.suites
        .filter((s) => s.status !== 'pass')
        .map((s) => `${s.name}: ${s.status === 'fail' ? 'counterexample found' : 'could not judge'}`),
    ];
    return {
      record: {
        name: 'properties',
        status,
        reasons,
        duration_ms: elapsed(started),
        result_file: 'properties/result.json',
        figures: { suites: result.suites.length, seed: result.seed.seed, runs: result.suites.reduce((n, s) => n + s.runs, 0) },
      },
      evidence,
      failures,
    };
  } finally {
    budget.stop();
    await target.close();
  }
}
