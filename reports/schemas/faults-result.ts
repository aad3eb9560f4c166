// The faults stage's document (fleetproof-faults-result/v1): what the
// nemesis broke and when, what the proxy disturbed, the traffic per second
// it saw, and the property suites that judged the registry through it.
import type { FaultBandRow, FaultFigures, TrafficRow } from '../../load/runner/fault-figures.ts';

export type { FaultBandRow, TrafficRow };
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import type { CallTally } from '../../properties/targets/http/call-outcomes.ts';

/** The sweep over the faults stage's whole history, after the faults ended and the registry recovered. */
export interface SweepResult {
  ops: number;
  /** Operations whose answer was lost, timed out or was STORAGE_UNAVAILABLE. */
  indeterminate: number;
  /** Of the indeterminate resolves: how many left a route (took effect once) and how many did not. */
  indeterminate_resolves: { took_effect: number; no_effect: number };
  /** Operations surely never forwarded (definite failures without an answer). */
  not_forwarded: number;
  routes: number;
  settled_by_sweep: number;
  violations: string[];
}

export const FAULTS_SCHEMA = 'fleetproof-faults-result/v1';

export interface DisturbedRow {
  at: number;
  fate: 'reset-before-forward' | 'lost-after-forward';
  method: string;
  path: string;
  status: number | null;
}

export interface FaultsDocument {
  schema: typeof FAULTS_SCHEMA;
  kinds: string[];
  /** The flags that rerun this schedule. */
  replay: string;
  /** The stage's budget (--budget faults=DURATION, or scaled from its rounds). */
  budget_ms: number;
  bands: FaultBandRow[];
  figures: FaultFigures;
  traffic: TrafficRow[];
  /** The first requests the proxy disturbed, for reading a failure against. */
  disturbed: DisturbedRow[];
  /** Why the stage could not judge, when it could not. */
  error: string | null;
  properties: PropertiesDocument | null;
  /** The sweep over the whole stage's history after the faults ended; null when it did not run. */
  sweep: SweepResult | null;
  /** The harness's calls: answered, surely never forwarded (:fail), indeterminate (:info). */
  calls: CallTally | null;
}
