// What a property suite runs against. A target opens one run at a time: a
// registry to talk to (the contract's registry port, in-process or over
// HTTP), a clock the suite either drives or can only observe, and the
// namespace that keeps this run's records apart from earlier runs on a
// shared registry.
import type { RegistryLimits } from '../../contract/records.ts';
import type { RegistryPort } from '../../contract/target-port.ts';
import { fleetLayout } from './fleet-layout.ts';
import { Universe } from './universe.ts';

/** The registry a run talks to: the contract's port, whatever implements it. */
export type TargetStore = RegistryPort;

/** A span of target time that surely contains the instant a call took effect. */
export interface TimeWindow {
  lo: number;
  hi: number;
}

export interface TargetClock {
  /** True when the harness decides what time it is for the registry. */
  readonly manual: boolean;
  /** Runs a call; the window surely contains the instant the registry acted on it. */
  around<T>(call: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; window: TimeWindow }>;
  /** The best estimate of the registry's now. */
  now(): number;
  /** Moves a manual clock forward; a target with a real clock cannot. */
  advance(ms: number): void;
  /** Returns once the registry's now is surely at or past `ms`. */
  waitUntil(ms: number): Promise<void>;
}

export interface RunContext {
  readonly store: TargetStore;
  readonly clock: TargetClock;
  readonly u: Universe;
  /** True when later runs share this registry, so what this run holds must be released. */
  readonly shared: boolean;
  /** Under faults: how long a setup or clean-up write is sent again while unanswered (once, without). */
  readonly resendUnansweredMs?: number;
  /** Aborted once the stage calls its requests off (its budget is spent): nothing is sent again. */
  readonly calledOff?: AbortSignal;
  close(): Promise<void>;
}

export interface Target {
  /** memory, postgres or http. */
  readonly kind: 'memory' | 'postgres' | 'http';
  /** For reports: the store, or the URL of the server. */
  readonly description: string;
  readonly manualClock: boolean;
  /** The limits the registry declares: the suites size their fleet and commands to them. */
  readonly limits: RegistryLimits;
  openRun(): Promise<RunContext>;
  close(): Promise<void>;
}

/** The start of every manual clock, matching the reference's behaviour tests. */
export const T0 = Date.parse('2026-11-30T12:00:00.000Z');

/** A manual clock's view for the suites; `current` is read by the store at every call. */
export class DrivenClock implements TargetClock {
  readonly manual = true;
  constructor(public current: number) {}

  async around<T>(call: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; window: TimeWindow }> {
    const at = this.current;
    const result = await settled(call);
    return { result, window: { lo: at, hi: at } };
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  async waitUntil(ms: number): Promise<void> {
    this.current = Math.max(this.current, ms);
  }
}

export async function settled<T>(call: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  try {
    return { status: 'fulfilled', value: await call() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/** The universe of one run on a registry with these limits. */
export function universeOf(ns: string, limits: RegistryLimits): Universe {
  return new Universe(ns, fleetLayout(limits));
}

let runCounter = 0;

/**
 * A namespace unique within this process and, with the run id (or a random
 * part without one), across processes; under a run id a vendor can tell from
 * any record which run made it, as from conformance's.
 */
export function freshNamespace(runId?: string): string {
  runCounter += 1;
  return runId === undefined
    ? `p${Math.random().toString(36).slice(2, 7)}${runCounter.toString(36)}.`
    : `${runId}.${runCounter.toString(36)}.`;
}
