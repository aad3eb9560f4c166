// Each phase of a load run judged from the engine's summary of it and the run
// journal: its status, its figures, and what it adds to the run's verdict.
// A phase that did not finish is judged by why: cut at its own budget (a
// failure where the profile's budgets judge speed), cut by a stop of the whole
// run (a signal, or the stage's budget: no evidence either way), or ended by
// an error of its own.
import { RATE_PHASES } from '../lib/options.js';
import { BREAKPOINT_PHASE } from './breakpoint.ts';
import type { Journal } from './journal.ts';

/** What the engine's end-of-test summary says of one phase. */
export interface EnginePhase {
  name: string;
  checks_ok: boolean;
  checks: { passes: number; fails: number };
  latency_ms: Record<string, number> | null;
  requests: number;
  dropped_iterations?: number;
  resend_wait_ms?: number;
}

export interface PhaseRow {
  name: string;
  /** passed, failed, or error when it gave no evidence (interrupted by an exception or a stop, no requests, iterations dropped). */
  status: 'pass' | 'fail' | 'error';
  checks_ok: boolean;
  dropped_iterations: number;
  checks: { passes: number; fails: number };
  requests: number;
  wall_ms: number | null;
  throughput_rps: number | null;
  latency_ms: Record<string, number> | null;
  /** Lower nearest-rank percentiles of the journal's raw latencies (the anchor's method). */
  nearest_rank: { operation: string; count: number; p50: number; p95: number; p99: number }[];
}

export interface JudgedPhases {
  rows: PhaseRow[];
  /** Failures of the registry. */
  reasons: string[];
  /** Why the run could not judge. */
  undecided: string[];
  /** Checks that failed where an answer left the outcome open: no verdict, unless something else fails the run. */
  unsure: string[];
}

/** Phases that run at an arrival rate for the profile's duration; the others run once within a budget. */
const OPEN_MODEL = new Set([...Object.keys(RATE_PHASES), BREAKPOINT_PHASE]);

const nearestRank = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.floor(((sorted.length - 1) * p) / 100)]!);

export function judgePhases(args: {
  phases: readonly EnginePhase[];
  profile: { duration_s: number | null; budgets_judge_speed?: boolean; phases: ReadonlyArray<{ name: string; budget_s?: number }> };
  journal: Journal;
  /** The most iterations the profile lets the generator fail to start. */
  droppedBound: number;
  /** A ramp's curve: its own phase's failed checks are its stopping rule, not a failure. */
  ramp: boolean;
  /** The run was stopped before its end (the run's reasons say why): a phase it cut shows nothing. */
  stopped: boolean;
}): JudgedPhases {
  const { journal, profile } = args;
  const out: JudgedPhases = { rows: [], reasons: [], undecided: [], unsure: [] };
  const unjudged = new Map<string, number>();
  for (const u of journal.unjudged) unjudged.set(u.phase, (unjudged.get(u.phase) ?? 0) + 1);
  for (const p of args.phases) {
    const timing = journal.phases.find((x) => x.phase === p.name);
    const sustained = OPEN_MODEL.has(p.name);
    const budget = profile.phases.find((x) => x.name === p.name)?.budget_s;
    const wall = timing ? timing.ms : sustained && profile.duration_s !== null ? profile.duration_s * 1000 : null;
    const notJudged = unjudged.get(p.name) ?? 0;
    // A phase whose every check went unjudged recorded none: its empty rate is no failure.
    const checksOk = p.checks_ok || (p.checks.passes + p.checks.fails === 0 && notJudged > 0);
    let status: PhaseRow['status'] = checksOk ? 'pass' : 'fail';
    // A stop cuts every phase that had not finished, the rate-driven ones (which run to the end) among them:
    // each is no evidence, and the stop, which names them, is their one reason.
    if (args.stopped && p.name !== 'seed' && !timing) status = 'error';
    else if (!sustained && p.name !== 'seed' && !timing) {
      status = judgeCut(out, p, budget, profile.budgets_judge_speed === false);
    } else if (timing?.completed === false) {
      status = 'error';
      out.undecided.push(`phase ${p.name}: interrupted by an error of its own after ${timing.ms} ms (see the script's messages)`);
    } else if (p.requests === 0) {
      status = 'error';
      out.undecided.push(`phase ${p.name}: made no requests, so it shows nothing about the registry`);
    } else if ((p.dropped_iterations ?? 0) > args.droppedBound) {
      status = 'error';
    } else if (!checksOk && !(args.ramp && p.name === BREAKPOINT_PHASE))
      out.reasons.push(`phase ${p.name}: ${p.checks.fails} of ${p.checks.passes + p.checks.fails} checks failed`);
    if (notJudged > 0) {
      if (status === 'pass') status = 'error';
      out.unsure.push(
        `phase ${p.name}: ${notJudged} check(s) not judged: each failed in an iteration whose outcome an answer left open (no answer, STORAGE_UNAVAILABLE, a request sent again after one, or a resolve still refused for contention after its retries)`,
      );
    }
    out.rows.push({
      name: p.name,
      status,
      checks_ok: p.checks_ok,
      dropped_iterations: p.dropped_iterations ?? 0,
      checks: p.checks,
      requests: p.requests,
      wall_ms: wall,
      throughput_rps: wall ? p.requests / (wall / 1000) : null,
      latency_ms: p.latency_ms,
      nearest_rank: journal.latencies
        .filter((l) => l.phase === p.name)
        .map((l) => {
          const sorted = [...l.ms].sort((a, b) => a - b);
          return {
            operation: l.operation,
            count: sorted.length,
            p50: nearestRank(sorted, 50),
            p95: nearestRank(sorted, 95),
            p99: nearestRank(sorted, 99),
          };
        }),
    });
  }
  return out;
}

/** A phase that ran out of its own budget: the registry's failure only where the budgets judge speed and nothing else explains it. */
function judgeCut(out: JudgedPhases, p: EnginePhase, budget: number | undefined, onlyBounds: boolean): PhaseRow['status'] {
  const cut = `phase ${p.name}: interrupted, not finished within its ${budget ?? '?'} s budget`;
  // The flows waited, on the phase's time, to send again requests whose answer left the outcome open
  // ([failure-indeterminate]: no failure by itself) or was a contention refusal: the cut may be those waits.
  const waitedMs = p.resend_wait_ms ?? 0;
  // A profile whose budgets only keep the run bounded (smoke): a cut shows the machine, not the registry.
  if (onlyBounds)
    out.undecided.push(`${cut}, which in this profile only bounds the run: give the run more CPU, or a profile whose budgets judge speed`);
  else if (waitedMs > 0)
    out.undecided.push(
      `${cut}, and the flows spent ${(waitedMs / 1000).toFixed(1)} s of it waiting to send again requests whose answer left the outcome open or was refused for contention: it shows nothing about speed`,
    );
  else {
    out.reasons.push(cut);
    return 'fail';
  }
  return 'error';
}
