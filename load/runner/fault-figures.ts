// What a nemesis reports of a run it disturbed: its counts, each fault's
// band on the timeline, and the traffic it saw per second. The load verdict
// under faults, the faults document and the reports all speak of these.
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

export interface FaultBandRow {
  fault: string;
  /** Milliseconds since the schedule started. */
  start: number;
  end: number;
  recovery_ms: number | null;
  error: string | null;
}

export interface TrafficRow {
  second: number;
  requests: number;
  errors: number;
  latency_ms_mean: number;
  latency_ms_max: number;
}
