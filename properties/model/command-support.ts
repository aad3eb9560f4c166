// What every command does around its one call to the registry: run it inside
// a time window, turn the answer into an observation, evaluate the model at
// every instant of the window that could matter, and take the model branch
// the registry's answer matches — or report that none does.
import type { AsyncCommand } from 'fast-check';
import type { WriteResult } from '../../contract/records.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { compareWithModel } from './compare-state.ts';
import { diverged, expectProperty, IndeterminateOutcome, NotForwarded, skipIndeterminateRun } from '../check/violations.ts';
import { isIndeterminate, markIndeterminate, settleIndeterminate, takePending, type IndeterminateObservation } from './indeterminate.ts';
import type { RunContext } from '../targets/target.ts';
import type { ModelState } from './model-state.ts';
import type { RegistryModel } from './registry-model.ts';
import { differences } from './json.ts';
import { describeOutcome, type Branch, type Outcome } from './rules/outcome.ts';
import { decisionInstants } from './rules/settlement.ts';
import type { TimeWindow } from '../targets/target.ts';

/** An answer, a registry error, or no answer to a write (indeterminate: see indeterminate.ts). */
export type Observation<T> = { ok: true; value: T } | { ok: false; error: RegistryError } | IndeterminateObservation;

export interface Observed<T> {
  obs: Observation<T>;
  window: TimeWindow;
}

/**
 * A model-based command: `act` performs one call and checks it; every
 * command then compares the whole observable state with the model.
 */
export abstract class RegistryCommand implements AsyncCommand<RegistryModel, RunContext> {
  abstract check(m: Readonly<RegistryModel>): boolean;
  protected abstract act(m: RegistryModel, run: RunContext): Promise<void>;
  abstract toString(): string;

  async run(m: RegistryModel, run: RunContext): Promise<void> {
    const before = structuredClone(m.s);
    try {
      await this.act(m, run);
    } catch (err) {
      if (!NotForwarded.is(err)) throw err;
      // A :fail — the registry never saw the request; the comparison below proves it changed nothing.
      m.s = before;
    }
    const pending = takePending(run);
    if (pending) m.s = await settleIndeterminate(m, run, before, pending, this.toString());
    else await compareWithModel(m, run, this.toString());
  }
}

export async function observe<T>(run: RunContext, call: () => Promise<T>): Promise<Observed<T>> {
  const { result, window } = await run.clock.around(call);
  if (result.status === 'fulfilled') return { obs: { ok: true, value: result.value }, window };
  const err = result.reason;
  // A read that could not be made judges nothing; a write without an answer is judged once it is read back.
  if (IndeterminateOutcome.is(err)) return err.read ? skipIndeterminateRun(err) : markIndeterminate(run, err, window);
  if (RegistryError.is(err)) return { obs: { ok: false, error: err }, window };
  throw err;
}

/** Evaluates a rule that reads the clock at every instant of the window where its answer could change. */
export function predict<T>(s: ModelState, window: TimeWindow, rule: (clone: ModelState, now: number) => Branch<T>[]): Branch<T>[] {
  return decisionInstants(s, window).flatMap((now) => rule(structuredClone(s), now));
}

/** A predicted error matches when the code is the same and every predicted detail is present and equal. */
export function errorMatches(o: Outcome<unknown>, err: RegistryError): boolean {
  if (o.ok || o.code !== err.code) return false;
  return Object.entries(o.details ?? {}).every(([k, v]) => err.details?.[k] === v);
}

export function describeObservation(obs: Observation<unknown>): string {
  if (!obs.ok) return obs.error.details ? `${obs.error.code} ${JSON.stringify(obs.error.details)}` : obs.error.code;
  // In full: a counterexample shows the registry's answer as completely as the model's.
  return `ok ${JSON.stringify(obs.value)}`;
}

/** The branch the registry took, or a divergence naming what was expected instead. */
export function takeBranch<T, V>(
  what: string,
  branches: Branch<T>[],
  obs: Observation<V>,
  okMatches: (predicted: T, observed: V) => boolean,
  /** The part of a successful answer the prediction describes, to name the fields that differ. */
  predictedPart: (observed: V) => unknown = (v) => v,
): Branch<T> {
  if (isIndeterminate(obs)) {
    obs.indeterminate.candidates.push(...branches.map((b) => ({ state: b.state, revision: 'same' as const })));
    return branches[0]!;
  }
  const hit = branches.find((b) =>
    b.outcome.ok ? obs.ok && okMatches(b.outcome.value, obs.value) : !obs.ok && errorMatches(b.outcome, obs.error),
  );
  if (hit) return hit;
  const expected = [...new Set(branches.map((b) => describeOutcome(b.outcome)))].join(' or ');
  const fields = obs.ok ? differingFields(branches, predictedPart(obs.value)) : '';
  return diverged(`${what}: the registry answered ${describeObservation(obs)}; the model expected ${expected}${fields}`);
}

/** For a success the model also predicted as a success: each field that differs, with both values. */
function differingFields<T>(branches: Branch<T>[], observed: unknown): string {
  const lists = branches.flatMap((b) => (b.outcome.ok ? [differences(observed, b.outcome.value)] : [])).filter((d) => d.length > 0);
  if (lists.length === 0) return '';
  return lists
    .map(
      (d, i) =>
        `\n  differs from ${lists.length > 1 ? `predicted success ${i + 1}` : 'the model'} at:\n${d.map((x) => `    ${x}`).join('\n')}`,
    )
    .join('');
}

/**
 * Checks the revision a write reports ([revision-advances], [revision-stable],
 * [revision-in-results]) and records it in the state the model moves to.
 */
export function adoptWriteRevision(
  what: string,
  before: number,
  next: ModelState,
  result: WriteResult<unknown>,
  changesCatalog: boolean,
): void {
  const moved = result.catalog_revision !== before;
  if (changesCatalog && result.outcome === 'applied' && !(result.catalog_revision > before)) {
    diverged(`${what}: an applied catalog write reported revision ${result.catalog_revision}, not above ${before}`);
  }
  if ((!changesCatalog || result.outcome === 'unchanged') && moved) {
    diverged(`${what}: a write that changes no catalog record moved the revision from ${before} to ${result.catalog_revision}`);
  }
  next.revision = result.catalog_revision;
}

/** Applies a write's branch: the registry's answer must be one of the predicted outcomes. */
export async function performWrite<R>(
  m: RegistryModel,
  run: RunContext,
  what: string,
  changesCatalog: boolean,
  rule: (s: ModelState) => Branch<'applied' | 'unchanged'>[],
  call: () => Promise<WriteResult<R>>,
): Promise<void> {
  const { obs } = await observe(run, call);
  const branches = rule(structuredClone(m.s));
  if (isIndeterminate(obs)) {
    const advances = (b: Branch<'applied' | 'unchanged'>) => changesCatalog && b.outcome.ok && b.outcome.value === 'applied';
    obs.indeterminate.candidates.push(
      ...branches.map((b) => ({ state: b.state, revision: advances(b) ? ('advanced' as const) : ('same' as const) })),
    );
    return;
  }
  const branch = takeBranch(
    what,
    branches,
    obs,
    (predicted, observed) => predicted === observed.outcome,
    (observed) => observed.outcome,
  );
  if (obs.ok) adoptWriteRevision(what, m.s.revision, branch.state, obs.value, changesCatalog);
  m.s = branch.state;
}

/** [auth-tenant-from-token], [auth-route-isolation]: a caller only ever sees its own tenant's routes. */
export function expectOwnRoute(what: string, caller: string, tenantOfRoute: string): void {
  expectProperty(
    'tenant-isolation',
    tenantOfRoute === caller,
    () => `${what}: tenant ${caller} was shown a route of tenant ${tenantOfRoute}`,
  );
}
