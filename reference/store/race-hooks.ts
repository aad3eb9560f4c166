// Race hooks: the seams where a store's check and the write it guards could
// be pulled apart, as an `await` between them, a lock taken too late or a
// read outside the transaction would pull them apart. Every hook is off by
// default and a store never asks who set one; with a hook set, the memory
// store waits for it between the check and the write, so the answer of the
// check may be stale by the time it writes, and the PostgreSQL store runs
// stand-ins for its SQL functions. Only what needs a seam inside a store's
// atomic step is here: everything else that breaks a registry on purpose
// wraps the store or the server from outside (reference/defects/).

/** Waits between a check and its write. */
export type Pause = () => Promise<void>;

export interface RaceHooks {
  /** Memory store: between a resolve finding the action unrouted and creating its route. */
  readonly actionInsert?: Pause;
  /** Memory store: between a new route's scope check and its reservation; the replica is chosen again after it. */
  readonly newRouteScopes?: Pause;
  /** Memory store: between a new route's choice of a replica with room and taking its unit; the scopes are checked again after it. */
  readonly newRouteReplica?: Pause;
  /** Memory store: between a new route's whole plan (replica and scopes) and its commit. */
  readonly newRoutePlan?: Pause;
  /** Memory store: between a retry's scope and replica checks and its reservation. */
  readonly retryReservation?: Pause;
  /** Memory store: between a settlement finding the route reserved and releasing it. */
  readonly settleRelease?: Pause;
  /**
   * PostgreSQL store, whose atomic steps are SQL functions calling each
   * other by name: SQL creating functions that stand in for the registry's
   * own of the same name and arguments. The store installs them when it
   * opens (with the owner's URL) in a schema of their own, searched before
   * the registry's by its data connections, so every call by that name
   * reaches the stand-in (postgres/stand-ins.ts).
   */
  readonly standInFunctions?: string;
}

export const NO_RACE_HOOKS: RaceHooks = Object.freeze({});

/** `write` now, or after `pause` when the site has a hook. */
export function afterPause<T>(pause: Pause | undefined, write: () => T): T | Promise<Awaited<T>> {
  if (pause === undefined) return write();
  return pause().then(write) as Promise<Awaited<T>>;
}
