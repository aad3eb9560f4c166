// The verdict of a load run under a nemesis. Faults slow and cut requests
// on purpose, so what the run measured of speed — latency and throughput
// thresholds, phase checks that a reset or a 503 failed, iterations the
// generator could not start while answers were slow — shows degradation,
// not a breach of the SLO: it is reported, not judged. What faults must not
// break is judged as always: after the faults healed and the registry was
// ready again, the runner settled what the run still held (read back
// through the API, indeterminate operations included) and the audit
// checked routes pinned, reservations released, replicas and counters back
// at baseline, never over capacity. A violation there fails the run; an
// audit that could not read fails nothing and judges nothing.
import type { LoadReport } from './load-report.ts';

/** What the nemesis did during the run, as it counts it (certify/nemesis/nemesis-summary.ts). */
export interface FaultFigures {
  faults: number;
  by_fault: Record<string, number>;
  recovery_ms_max: number | null;
  recovery_ms_median: number | null;
  forwarded: number;
  reset_before_forward: number;
  lost_after_forward: number;
}

export interface FaultsSummary extends FaultFigures {
  /** Resolves and settlements still without an answer after the flows' retries; the audit read each back. */
  indeterminate_ops: number;
  /** The flags that replay the schedule. */
  replay: string;
  /** What the run measured but, under faults, does not judge. */
  not_judged: string[];
}

export type JudgedReport = LoadReport & { faults: FaultsSummary };

const INTERRUPTED = /^phase [^:]+: interrupted, not finished/;
const BASELINE_INVARIANTS = new Set(['reservations_released', 'replicas_at_baseline', 'counters_at_baseline']);
const MEASURED_ONLY = [/^threshold /, /^phase [^:]+: \d+ of \d+ checks failed/, INTERRUPTED, /^could not judge at this rate/];

/** Re-judges a finished run's report by its safety invariants alone. */
export function judgeUnderFaults(report: LoadReport, figures: FaultFigures, replay: string, indeterminateOps: number): JudgedReport {
  const measured = (r: string) => MEASURED_ONLY.some((p) => p.test(r));
  const undecided = report.could_not_judge.filter((r) => !measured(r));
  // A phase cut at its budget may have left requests in flight whose actions the harness never learned:
  // what they reserve no sweep can find, so the baseline invariants cannot blame the registry. Safety ones still judge.
  const cut = report.reasons.some((r) => INTERRUPTED.test(r));
  const unknowable = (i: { id: string; ok: boolean }) => cut && !i.ok && BASELINE_INVARIANTS.has(i.id);
  for (const i of (report.audit?.invariants ?? []).filter(unknowable)) undecided.push(`audit: ${i.description}: not judged, a phase cut at its budget under faults may have left reservations no one can name`);
  const reasons = report.reasons.filter((r) => !measured(r) && !report.could_not_judge.includes(r) && !(report.audit?.invariants ?? []).some((i) => unknowable(i) && r.startsWith(`audit: ${i.description}`)));
  const violated = (report.audit?.invariants ?? []).some((i) => !i.ok && !unknowable(i));
  const verdict: LoadReport['verdict'] = violated ? 'fail' : undecided.length > 0 ? 'could-not-judge' : reasons.length > 0 ? 'fail' : 'pass';
  const noFaults = figures.faults === 0 ? ['no fault was injected during the load: it judged nothing under faults'] : [];
  return {
    ...report,
    verdict: noFaults.length > 0 && verdict === 'pass' ? 'could-not-judge' : verdict,
    reasons: [...noFaults, ...undecided, ...reasons],
    could_not_judge: [...noFaults, ...undecided],
    faults: { ...figures, indeterminate_ops: indeterminateOps, replay, not_judged: report.reasons.filter(measured) },
  };
}

export function faultsLines(f: FaultsSummary): string[] {
  return [
    `under faults: ${f.faults} fault(s) injected, ${f.indeterminate_ops} operation(s) indeterminate after retries (each read back and settled before the audit), recovery median ${f.recovery_ms_median ?? '-'} ms, max ${f.recovery_ms_max ?? '-'} ms`,
    ...(f.not_judged.length > 0 ? [`measured under faults, not judged as SLO breaches: ${f.not_judged.join('; ')}`] : []),
    `replay: ${f.replay}`,
  ];
}
