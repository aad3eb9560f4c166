// Stage 3: a scale qualification profile with its invariant audit. The
// audit's invariants are evidence for the clauses they check.
import { join } from 'node:path';
import { runLoad } from '../../load/runner/run-load.ts';
import type { InvariantId } from '../../load/runner/audit.ts';
import { renderTerminalSummary } from '../../reports/load/terminal-summary.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import type { Failure } from '../../reports/schemas/certification-result.ts';
import { loadStatus } from '../verdict.ts';
import { elapsed, type ClauseEvidence, type StageContext, type StageOutput } from './stage.ts';

const INVARIANT_CLAUSES: Readonly<Record<InvariantId, string>> = {
  routes_pinned: 'pinned-identical',
  reservations_released: 'settle-release-once',
  replicas_at_baseline: 'settle-release-once',
  counters_at_baseline: 'admission-all-or-nothing',
  never_over_capacity: 'admission-never-overbooked',
  offline_as_expected: 'lease-expiry-effect',
};

export async function loadStage(ctx: StageContext): Promise<StageOutput> {
  const started = performance.now();
  const outcome = await runLoad({
    target: ctx.targetUrl,
    keyPath: ctx.keyPath ?? '',
    ...(ctx.auth ? { auth: ctx.auth } : {}),
    profile: ctx.profile,
    runId: ctx.runId,
    ...(ctx.budgets?.load !== undefined ? { budgetMs: ctx.budgets.load } : {}),
    outDir: join(ctx.out, 'load'),
    writeReport: writeLoadReport,
  });
  const report = outcome.report;
  if (!report) {
    return {
      record: {
        name: 'load',
        status: 'could-not-run',
        reasons: [outcome.message],
        duration_ms: elapsed(started),
        result_file: null,
        figures: {},
      },
      evidence: [],
      failures: [],
    };
  }
  ctx.log(renderTerminalSummary(report));
  const rerun = `npx fleetproof load ${ctx.targetFlags} --profile ${ctx.profile}`;
  const evidence: ClauseEvidence[] = (report.audit?.invariants ?? []).map((i) => ({
    clause: INVARIANT_CLAUSES[i.id],
    kind: 'property',
    id: `load audit: ${i.id}`,
    status: i.ok ? 'pass' : 'fail',
  }));
  const failures: Failure[] = [
    ...report.thresholds
      .filter((t) => !t.ok)
      .map((t) => ({
        stage: 'load' as const,
        subject: `threshold ${t.label}`,
        clause: null,
        message: `${t.metric} ${t.expression}: ${t.value ?? 'no value'}`,
        reproduce: rerun,
      })),
    ...(report.audit?.invariants ?? [])
      .filter((i) => !i.ok)
      .map((i) => ({
        stage: 'load' as const,
        subject: `audit ${i.id}`,
        clause: INVARIANT_CLAUSES[i.id],
        message: `${i.description}: ${i.examples.join('; ')}`,
        reproduce: rerun,
      })),
    ...report.phases
      .filter((p) => !p.checks_ok)
      .map((p) => ({
        stage: 'load' as const,
        subject: `phase ${p.name}`,
        clause: null,
        message: `${p.checks.fails} check(s) failed`,
        reproduce: rerun,
      })),
  ];
  const route = report.thresholds.find((t) => t.metric.includes('route') && t.expression.startsWith('p(99)'));
  return {
    record: {
      name: 'load',
      status: loadStatus(report),
      reasons: report.reasons,
      duration_ms: elapsed(started),
      result_file: 'load/summary.json',
      figures: {
        profile: report.profile,
        engine: report.environment.engine.name,
        thresholds: report.thresholds.length,
        routes_seen: report.routes_seen,
        ...(route?.value != null ? { route_p99_ms: Math.round(route.value * 10) / 10 } : {}),
      },
    },
    evidence,
    failures,
  };
}
