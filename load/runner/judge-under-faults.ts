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
import type { FaultBandRow, FaultFigures, TrafficRow } from './fault-figures.ts';
import { NEVER_SEEDED, type LoadReport } from './load-report.ts';

export interface FaultsSummary extends FaultFigures {
  /** Resolves and settlements still without an answer after the flows' retries; the audit read each back. */
  indeterminate_ops: number;
  /** The flags that replay the schedule. */
  replay: string;
  /** What the run measured but, under faults, does not judge. */
  not_judged: string[];
  /** Every fault, in milliseconds since the schedule started. */
  bands: FaultBandRow[];
  /** Traffic per second through the proxy; empty without one. */
  traffic: TrafficRow[];
}

export type JudgedReport = LoadReport & { faults: FaultsSummary };
/** A load report, with its faults when the run was under a nemesis. */
export type MaybeUnderFaults = LoadReport & { faults?: FaultsSummary };

// A phase cut at its budget is measured too: every action whose resolve it may have left in flight was journaled
// before the request left, so the runner settled what it holds and the baseline invariants judge as always.
const MEASURED_ONLY = [
  /^threshold /,
  /^phase [^:]+: \d+ of \d+ checks failed/,
  /^phase [^:]+: \d+ check\(s\) not judged/,
  /^phase [^:]+: interrupted, not finished/,
  /^could not judge at this rate/,
];

/** Re-judges a finished run's report by its safety invariants alone. */
export function judgeUnderFaults(
  report: LoadReport,
  figures: FaultFigures,
  replay: string,
  indeterminateOps: number,
  timeline: Pick<FaultsSummary, 'bands' | 'traffic'> = { bands: [], traffic: [] },
): JudgedReport {
  const measured = (r: string) => MEASURED_ONLY.some((p) => p.test(r));
  const undecided = report.could_not_judge.filter((r) => !measured(r));
  const reasons = report.reasons.filter((r) => !measured(r) && !report.could_not_judge.includes(r));
  // As in the report: an audit of a dataset that was never seeded reads records the run never wrote, and blames nothing.
  const violated = !report.could_not_judge.includes(NEVER_SEEDED) && (report.audit?.invariants ?? []).some((i) => !i.ok);
  const verdict: LoadReport['verdict'] = violated
    ? 'fail'
    : report.verdict === 'could-not-run'
      ? 'could-not-run'
      : undecided.length > 0
        ? 'could-not-judge'
        : reasons.length > 0
          ? 'fail'
          : 'pass';
  const noFaults = figures.faults === 0 ? ['no fault was injected during the load: it judged nothing under faults'] : [];
  return {
    ...report,
    verdict: noFaults.length > 0 && verdict === 'pass' ? 'could-not-judge' : verdict,
    reasons: [...noFaults, ...undecided, ...reasons],
    could_not_judge: [...noFaults, ...undecided],
    measurements_judged: false,
    faults: {
      ...figures,
      indeterminate_ops: indeterminateOps,
      replay,
      not_judged: report.reasons.filter(measured),
      bands: [...timeline.bands],
      traffic: [...timeline.traffic],
    },
  };
}

export function faultsLines(f: FaultsSummary): string[] {
  return [
    `under faults: ${f.faults} fault(s) injected, ${f.indeterminate_ops} operation(s) indeterminate after retries (each read back and settled before the audit), recovery median ${f.recovery_ms_median ?? '-'} ms, max ${f.recovery_ms_max ?? '-'} ms`,
    ...(f.not_judged.length > 0 ? [`measured under faults, not judged as SLO breaches: ${f.not_judged.join('; ')}`] : []),
    `replay: ${f.replay}`,
  ];
}
