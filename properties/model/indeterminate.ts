// A command whose write got no answer (lost, timed out, STORAGE_UNAVAILABLE)
// may or may not have taken effect: Jepsen's :info. The model neither
// assumes it did nothing nor counts it as a failure. It keeps every state
// the command could have led to — unchanged, or each branch the rules
// predict for it — and once the registry answers again it reads the truth
// back through the API and adopts the one candidate the registry's whole
// observable state matches: each candidate is also read for the records the
// others would have created, so "unchanged" cannot match a registry that
// created them. No candidate matching is a violation: the write
// took effect in a way the contract does not allow (twice, partly, or not
// as predicted).
import { RegistryError } from '../../contract/registry-error.ts';
import type { RouteAssignment } from '../../contract/records.ts';
import { diverged, PropertyViolation, type IndeterminateOutcome, type PropertyName } from '../check/violations.ts';
import type { RunContext, TimeWindow } from '../targets/target.ts';
import { compareWithModel } from './compare-state.ts';
import { sameJson } from './json.ts';
import type { ModelState } from './model-state.ts';
import { RegistryModel } from './registry-model.ts';

export interface Candidate {
  state: ModelState;
  /** A catalog write that applied moves the revision to a value only the registry knows. */
  revision: 'same' | 'advanced';
}

export interface Pending {
  why: string;
  window: TimeWindow;
  candidates: Candidate[];
  /**
   * Set by a command whose every legal outcome changes nothing (a request the
   * contract refuses): the property a change read back breaks. Without it, a
   * change no branch explains is a model-agreement violation; with it, the
   * request was obeyed where it had to be refused, and the verdict names the
   * rule the command judges, as it would had the answer arrived.
   */
  changeBreaks?: PropertyName;
}

const pendingByRun = new WeakMap<RunContext, Pending>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The observation of a write without an answer: an error no rule predicts, carrying the pending candidates. */
export interface IndeterminateObservation {
  ok: false;
  error: RegistryError;
  indeterminate: Pending;
}

/**
 * Waits until the registry answers a read again and, for a write it may still be acting on (one that timed out),
 * until that time has passed too; then widens the window to then: the write may have acted until now. A registry
 * that applies a write later still than that, long after its client gave up, is read back before it did
 * (FAULTS.md says so).
 */
export async function markIndeterminate(
  run: RunContext,
  err: IndeterminateOutcome,
  window: TimeWindow,
): Promise<{ obs: IndeterminateObservation; window: TimeWindow }> {
  if (err.mayStillActMs > 0) await sleep(err.mayStillActMs);
  const { window: recovered } = await run.clock.around(() => run.store.catalogRevision());
  const pending: Pending = { why: err.message, window: { lo: window.lo, hi: Math.max(window.hi, recovered.hi) }, candidates: [] };
  pendingByRun.set(run, pending);
  return {
    obs: { ok: false, error: new RegistryError('STORAGE_UNAVAILABLE', `indeterminate: ${err.message}`), indeterminate: pending },
    window: pending.window,
  };
}

export function isIndeterminate(obs: { ok: boolean }): obs is IndeterminateObservation {
  return (obs as Partial<IndeterminateObservation>).indeterminate !== undefined;
}

export function takePending(run: RunContext): Pending | undefined {
  const pending = pendingByRun.get(run);
  pendingByRun.delete(run);
  return pending;
}

/** A new route's fresh fields (fence token, instant) come from the registry: read them back and check them. */
async function fillFreshFields(m: RegistryModel, run: RunContext, window: TimeWindow, after: string): Promise<void> {
  for (const [action, route] of Object.entries(m.s.routes)) {
    if (route.assignment.fence_token !== '') continue;
    const seen = await run.store.route(route.assignment.tenant_id, action);
    if (!seen) return diverged(`after ${after}: the route of ${m.u.describe(action)} is missing`);
    const { fence_token, assigned_at, ...rest } = seen.assignment;
    const { fence_token: _f, assigned_at: _a, ...predicted } = route.assignment;
    if (!sameJson(rest, predicted)) return diverged(`after ${after}: the route of ${m.u.describe(action)} is not the one predicted`);
    if (m.s.fenceTokens.includes(fence_token))
      diverged(`after ${after}: fence token ${fence_token} was already issued ([assignment-fence-token])`);
    const at = Date.parse(assigned_at);
    if (!(at >= window.lo && at <= window.hi + 1))
      diverged(`after ${after}: assigned_at ${assigned_at} lies outside the indeterminate call and its recovery`);
    route.assignment = seen.assignment as RouteAssignment;
    m.s.fenceTokens.push(fence_token);
  }
}

async function matches(
  m: RegistryModel,
  run: RunContext,
  c: Candidate,
  others: ModelState[],
  before: ModelState,
  window: TimeWindow,
  after: string,
): Promise<ModelState> {
  const model = new RegistryModel(m.u, structuredClone(c.state), m.manualClock);
  await fillFreshFields(model, run, window, after);
  if (c.revision === 'advanced') {
    const revision = await run.store.catalogRevision();
    if (!(revision > before.revision)) diverged(`after ${after}: an applied catalog write left the revision at ${revision}`);
    model.s.revision = revision;
  }
  await compareWithModel(model, run, after, others);
  return model.s;
}

/**
 * The state the registry shows after an indeterminate write: unchanged, or
 * one of the branches it could have taken. Candidates are tried in that
 * order; the first the registry's state matches in full is adopted.
 */
export async function settleIndeterminate(
  m: RegistryModel,
  run: RunContext,
  before: ModelState,
  pending: Pending,
  what: string,
): Promise<ModelState> {
  const after = `${what} (indeterminate: ${pending.why})`;
  const distinct = new Set<string>();
  const candidates = [{ state: before, revision: 'same' as const }, ...pending.candidates].filter(
    (c) => !distinct.has(JSON.stringify(c)) && !!distinct.add(JSON.stringify(c)),
  );
  const misses: PropertyViolation[] = [];
  for (const c of candidates) {
    try {
      return await matches(
        m,
        run,
        c,
        candidates.filter((o) => o !== c).map((o) => o.state),
        before,
        pending.window,
        after,
      );
    } catch (err) {
      if (!PropertyViolation.is(err)) throw err;
      misses.push(err);
    }
  }
  // The most telling miss is the one closest to a branch the command could take; a command that may change
  // nothing names the rule a change breaks.
  const telling = misses.find((v) => v.property !== 'model-agreement') ?? misses.at(-1)!;
  const property = pending.candidates.length === 0 && pending.changeBreaks ? pending.changeBreaks : telling.property;
  const why = misses
    .map((v, i) => `  ${i === 0 ? 'had it not taken effect' : `had it taken effect (branch ${i})`}: ${v.detail}`)
    .join('\n');
  throw new PropertyViolation(
    property,
    `${what} got no answer (${pending.why}); read back after recovery, the registry matches no outcome it could have had:\n${why}`,
  );
}
