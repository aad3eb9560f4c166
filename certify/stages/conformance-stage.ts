// Stage 1: the conformance suite, every case, with its own reports under
// conformance/. A target that cannot be reached here stops the certification.
import { join } from 'node:path';
import { resolveConfig } from '../../conformance/runner/config.ts';
import { terminalProgress } from '../../conformance/runner/progress.ts';
import { runConformance } from '../../conformance/runner/run.ts';
import { causeOf } from '../../reports/conformance/failure-groups.ts';
import { reproduction } from '../../reports/conformance/reproduce.ts';
import { writeConformanceReports } from '../../reports/conformance/write.ts';
import type { Failure } from '../../reports/schemas/certification-result.ts';
import { conformanceStatus } from '../verdict.ts';
import { elapsed, type ClauseEvidence, type StageContext, type StageOutput } from './stage.ts';

export async function conformanceStage(ctx: StageContext): Promise<StageOutput> {
  const started = performance.now();
  const out = join(ctx.out, 'conformance');
  const outcome = await runConformance({
    config: resolveConfig({ target: ctx.targetUrl, keyFile: ctx.keyPath, out, ...(ctx.budgets ? { budgets: ctx.budgets } : {}) }),
    ...(ctx.key ? { signingKey: ctx.key } : {}),
    ...(ctx.auth ? { auth: ctx.auth } : {}),
    runId: ctx.runId,
    progress: terminalProgress(),
    writeReports: writeConformanceReports,
    keepData: ctx.keepData ?? false,
  });
  const result = outcome.result;
  if (!result) {
    return {
      record: {
        name: 'conformance',
        status: 'could-not-run',
        reasons: [outcome.error ?? 'the conformance run did not start'],
        duration_ms: elapsed(started),
        result_file: null,
        figures: {},
      },
      evidence: [],
      failures: [],
    };
  }
  const evidence: ClauseEvidence[] = result.cases.map((c) => ({ clause: c.clause, kind: 'case', id: c.id, status: c.status }));
  const failures: Failure[] = result.cases
    .filter((c) => c.status === 'fail' || c.status === 'error')
    .map((c) => ({
      stage: 'conformance',
      subject: c.id,
      clause: c.failure_clause ?? c.clause,
      message: `${c.status}: ${c.message ?? ''}`,
      // The exchange itself is in the conformance document, which the report shows once beside this.
      reproduce: reproduction(result, c),
      cause: causeOf(c),
      ...(c.clause_text !== undefined ? { clause_text: c.clause_text } : {}),
    }));
  const blocking = result.summary.blocking;
  const status = conformanceStatus(result);
  const reasons =
    status === 'passed'
      ? []
      : status === 'failed'
        ? [`${blocking} required case(s) failed or errored`]
        : [outcome.error ?? 'the conformance run could not judge the target'];
  return {
    record: {
      name: 'conformance',
      status,
      reasons,
      duration_ms: elapsed(started),
      result_file: 'conformance/result.json',
      figures: {
        cases: result.summary.total,
        pass: result.summary.pass,
        fail: result.summary.fail,
        skip: result.summary.skip,
        error: result.summary.error,
        retirement: result.retirement.status,
      },
      skips: result.cases
        .filter((c) => c.status === 'skip')
        .map((c) => ({ subject: c.id, clause: c.clause, reason: c.message ?? 'skipped' })),
    },
    evidence,
    failures,
    ...(result.kept_data ? { keptData: result.kept_data } : {}),
  };
}
