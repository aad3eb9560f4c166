// The run over time, from the engine's raw metric output (metrics.ndjson, k6's
// JSON output on either engine): per time bucket, how many requests were
// made, how many failed, and their latency percentiles, for the whole run and
// for each phase on the same buckets. The end-of-run summary says how the run
// went on average; this says when it went wrong, and how much a phase's
// figures move from one interval to the next with nothing changed.
import type { MetricPoint } from '../histograms/k6-json-output.ts';

export interface TimeBucket {
  /** Start of the bucket, seconds after the first request. */
  t_s: number;
  requests: number;
  /** Requests k6 counts in http_req_failed (transport errors and unexpected statuses). */
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

/** A phase's requests in one bucket of the run's series; buckets where the phase made none are left out. */
export interface PhaseBucket {
  t_s: number;
  requests: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface TimeSeries {
  bucket_ms: number;
  started_at: string | null;
  buckets: TimeBucket[];
  /** Each phase's requests on the same buckets (its `phase` tag); absent in reports of older harnesses. */
  by_phase?: Record<string, PhaseBucket[]>;
}

const TARGET_BUCKETS = 60;
const nearestRank = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** About sixty buckets over the run, each a whole number of seconds (at least one). */
function bucketWidth(spanMs: number): number {
  return Math.max(1000, Math.ceil(spanMs / TARGET_BUCKETS / 1000) * 1000);
}

const percentiles = (sorted: number[]) => ({
  p50_ms: nearestRank(sorted, 50),
  p95_ms: nearestRank(sorted, 95),
  p99_ms: nearestRank(sorted, 99),
});

/** `phases`: the phase of each duration, by index, where the point named one. */
export function bucketPoints(
  durations: Array<[number, number]>,
  failures: Array<[number, number]>,
  phases: Array<string | undefined> = [],
): TimeSeries {
  if (durations.length === 0) return { bucket_ms: 1000, started_at: null, buckets: [] };
  // A loop, not Math.min(...): a long run has more points than a call has arguments.
  let start = Infinity;
  let end = -Infinity;
  for (const [t] of durations) {
    if (t < start) start = t;
    if (t > end) end = t;
  }
  const width = bucketWidth(end - start);
  const count = Math.floor((end - start) / width) + 1;
  const latencies = Array.from({ length: count }, () => [] as number[]);
  const failed = new Array<number>(count).fill(0);
  for (const [t, ms] of durations) latencies[Math.floor((t - start) / width)]!.push(ms);
  for (const [t, v] of failures) {
    const i = Math.floor((t - start) / width);
    if (v !== 0 && i >= 0 && i < count) failed[i]!++;
  }
  const byPhase = new Map<string, Map<number, number[]>>();
  durations.forEach(([t, ms], k) => {
    const phase = phases[k];
    if (phase === undefined) return;
    let own = byPhase.get(phase);
    if (!own) byPhase.set(phase, (own = new Map()));
    const i = Math.floor((t - start) / width);
    const values = own.get(i);
    if (values) values.push(ms);
    else own.set(i, [ms]);
  });
  const buckets = latencies.map((values, i) => {
    const sorted = values.sort((a, b) => a - b);
    return { t_s: (i * width) / 1000, requests: sorted.length, failed: failed[i]!, ...percentiles(sorted) };
  });
  const by_phase = Object.fromEntries(
    [...byPhase].map(([phase, own]) => [
      phase,
      [...own]
        .sort(([a], [b]) => a - b)
        .map(([i, values]) => {
          const sorted = values.sort((a, b) => a - b);
          return { t_s: (i * width) / 1000, requests: sorted.length, ...percentiles(sorted) };
        }),
    ]),
  );
  return { bucket_ms: width, started_at: new Date(start).toISOString(), buckets, ...(byPhase.size ? { by_phase } : {}) };
}

/** Collects the points a time series needs from the raw output. */
export class TimeSeriesSink {
  private readonly durations: Array<[number, number]> = [];
  private readonly phases: Array<string | undefined> = [];
  private readonly failures: Array<[number, number]> = [];

  point(p: MetricPoint): void {
    if (p.metric === 'http_req_duration') {
      this.durations.push([p.timeMs, p.value]);
      this.phases.push(p.tags['phase']);
    } else if (p.metric === 'http_req_failed') this.failures.push([p.timeMs, p.value]);
  }

  series(): TimeSeries {
    return bucketPoints(this.durations, this.failures, this.phases);
  }
}
