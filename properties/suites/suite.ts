// What a property suite is to the runner: a named property, default run
// counts per target kind, and a builder that turns a target into a
// fast-check check plus a way to print its counterexample as a script.
import type fc from 'fast-check';
import type { RunsInFlight } from '../check/runs-in-flight.ts';
import type { PropertyName } from '../check/violations.ts';
import type { Target } from '../targets/target.ts';

export const SUITE_NAMES = [
  'pinned-routes',
  'idempotent-settlement',
  'stale-cursor',
  'no-overbooking',
  'tenant-isolation',
  'circuit-behaviour',
  'model-agreement',
  'shared-actions',
] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

export function isSuiteName(s: string): s is SuiteName {
  return (SUITE_NAMES as readonly string[]).includes(s);
}

export interface BuildOptions {
  /** fast-check's replay path of a command sequence, from an earlier failure. */
  replayPath?: string;
  /** Where the check counts its runs, so the runner can stop and wait for one it left behind. */
  runs: RunsInFlight;
}

export interface BuiltProperty {
  check(parameters: fc.Parameters<unknown>): Promise<fc.RunDetails<unknown>>;
  /** The counterexample as a script, one step per line. */
  render(counterexample: unknown): string[];
  /** The replay path fast-check recorded for the counterexample's commands, if any. */
  replayPathOf(counterexample: unknown): string | undefined;
}

export interface SuiteDefinition {
  name: SuiteName;
  /** The property a failure of this suite is expected to name. */
  property: PropertyName;
  summary: string;
  /** Runs per target kind that keep the whole npm test under its time budget. */
  defaultRuns: Record<Target['kind'], number>;
  build(target: Target, options: BuildOptions): BuiltProperty;
}
