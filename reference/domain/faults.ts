// Deliberate defects for proving that the conformance and property suites
// catch broken registries. They are reachable only through an explicit option
// (and, from the command line, only when FLEETPROOF_ALLOW_FAULTS=1), never by
// default.
//
// Every switch is declared here once: the clause it breaks, where it applies
// and the hook its code consults. Code never tests a switch by name; it asks
// `FaultHooks` the named question of its hook (`fault.settleSkipsFence`), so a
// new switch is one entry below and one hook read at the point it bends.

interface FaultSwitch {
  /** The spec.md clause the defect breaks. */
  readonly clause: string;
  /** The name of the question the code at `appliesAt` asks. */
  readonly hook: string;
  /** Where the behaviour bends. */
  readonly appliesAt: string;
  /** What the defect does. */
  readonly defect: string;
}

export const FAULT_SWITCHES = {
  'settle-skip-fence': {
    clause: 'settle-fence',
    hook: 'settleSkipsFence',
    appliesAt: 'settlement decision (domain/settle-decision.ts), both stores',
    defect: 'settlement skips the full assignment comparison',
  },
  'settle-release-twice': {
    clause: 'settle-idempotent',
    hook: 'settleReleasesAgain',
    appliesAt: 'settlement decision (domain/settle-decision.ts), both stores',
    defect: 'settlement releases capacity again when already released',
  },
  'reselect-on-retry': {
    clause: 'pinned-identical',
    hook: 'retryReselects',
    appliesAt: 'resolve decision (domain/resolve-decision.ts), both stores',
    defect: 'a retry selects the best replica anew instead of the pinned one',
  },
  'cursor-skip-revision': {
    clause: 'page-stale-cursor',
    hook: 'cursorIgnoresRevision',
    appliesAt: 'catalog pages of both stores',
    defect: 'cursors are accepted whatever the revision',
  },
  'capacity-outside-lock': {
    clause: 'admission-never-overbooked',
    hook: 'capacityOutsideLock',
    appliesAt:
      'the reservation write of both stores (memory: a pause before it; PostgreSQL: fleetproof_reserve_scopes checks each scope by a plain read and takes it after a pause)',
    defect: 'capacity and scopes are checked, then reserved after a pause',
  },
  'tenant-from-body': {
    clause: 'auth-tenant-from-token',
    hook: 'tenantFromBody',
    appliesAt: 'HTTP server, before routing',
    defect: 'routing takes the tenant from a body field when present',
  },
  'nesting-bound-too-low': {
    clause: 'wire-nesting',
    hook: 'nestingBoundTooLow',
    appliesAt: 'HTTP server, body parsing',
    defect: 'a body nested 128 levels deep, which the contract accepts, is refused',
  },
  'unbounded-lease-expiry': {
    clause: 'lease-expiry-bounded',
    hook: 'leaseExpiryUnbounded',
    appliesAt: 'lease expiry of both stores',
    defect: 'lease expiry ignores its limit',
  },
  // Check-then-act races, the defects registries ship most: a check and the
  // write it guards split by one turn of the event loop, as an `await`
  // between them, a lock taken too late or a read outside the transaction
  // would split them. The memory store runs the write through `afterCheck`
  // (races.ts) at each site.
  'race-settle-release': {
    clause: 'settle-release-once',
    hook: 'raceSettleRelease',
    appliesAt: 'memory store settlement: the release a turn after "still reserved?"',
    defect: 'settlement decides "still reserved" and releases a turn later',
  },
  'race-retry-budget': {
    clause: 'pinned-retry-budget',
    hook: 'raceRetryBudget',
    appliesAt: 'memory store retry: the reservation a turn after the scope and replica checks',
    defect: 'a retry checks its scopes and the pinned replica, and reserves a turn later',
  },
  'race-action-insert': {
    clause: 'pinned-reserved',
    hook: 'raceActionInsert',
    appliesAt: 'memory store resolve: the new route a turn after the lookup found none',
    defect: 'a resolve finds the action unrouted and creates its route a turn later',
  },
  'race-scope-reservation': {
    clause: 'admission-never-overbooked',
    hook: 'raceScopeReservation',
    appliesAt: 'memory store new route: the scopes reserved a turn after their check',
    defect: 'a new route checks its admission scopes and reserves them a turn later',
  },
  'race-replica-capacity': {
    clause: 'admission-never-overbooked',
    hook: 'raceReplicaCapacity',
    appliesAt: 'memory store new route: the replica unit taken a turn after its check',
    defect: 'a new route picks a replica with room and takes its unit a turn later',
  },
} as const satisfies Record<string, FaultSwitch>;

export type FaultName = keyof typeof FAULT_SWITCHES;
export type Faults = ReadonlySet<FaultName>;
export const NO_FAULTS: Faults = new Set();

type SwitchOf<N extends FaultName> = (typeof FAULT_SWITCHES)[N];
type FaultHook = SwitchOf<FaultName>['hook'];
/** One named question per switch: is its defect on? */
export type FaultHooks = Readonly<Record<FaultHook, boolean>>;

/** Each switch's clause, by name. */
export const FAULTS = Object.fromEntries(Object.entries(FAULT_SWITCHES).map(([name, s]) => [name, s.clause])) as {
  readonly [N in FaultName]: SwitchOf<N>['clause'];
};

export function isFaultName(s: string): s is FaultName {
  return Object.hasOwn(FAULT_SWITCHES, s);
}

/** The hooks of a set of switches, answered once, so hot paths read a field. */
export function faultHooks(faults: Faults = NO_FAULTS): FaultHooks {
  const hooks = {} as Record<FaultHook, boolean>;
  for (const [name, s] of Object.entries(FAULT_SWITCHES) as Array<[FaultName, FaultSwitch]>) hooks[s.hook as FaultHook] = faults.has(name);
  return Object.freeze(hooks);
}

export const NO_FAULT_HOOKS: FaultHooks = faultHooks(NO_FAULTS);
