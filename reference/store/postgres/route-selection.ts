// What a resolve sends (sql/resolve.sql): the request, the store's clock,
// choices, and the eligible bindings of its tenant and capability
// as last read, by catalog publication. Which bindings are eligible depends
// on catalog records only, and every catalog write group changes the
// publication (the revision and the revision row) in its transaction, so a
// set read at the publication a resolve finds under the shared publication
// lock is exactly the set fleetproof_eligible_bindings would read then: the
// call reads the bindings only when the publication moved, and returns them
// for this cache. Each store process keeps its own.
import { SCOPE_OFF, type ResolveRequest, type TopologyPreference } from '../../../contract/records.ts';
import { IMPLICIT_DEFAULT_POLICY } from '../../domain/admission.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';
import { tiebreakHash } from '../../domain/digest.ts';
import { toTimestamp } from '../../domain/time.ts';
import { arrayText } from './sql.ts';

/**
 * The eligible bindings of one tenant and capability at one publication, as
 * arguments of resolve.sql: their keys (`<instance id> <current version
 * id>`, in priority then instance id order) and the end of each priority's
 * run in them (1-based), each as array text rendered once.
 */
export interface EligibleSet {
  readonly publication: string;
  readonly keys: string;
  readonly tierEnds: string;
  /** Characters of the rendered arrays, for the cache bound. */
  readonly size: number;
}

const NO_SET = { publication: null, keys: '{}', tierEnds: '{}' };

/** Default bound of the eligible-binding cache, in characters of rendered arguments (about 4 KB per 100 bindings). */
export const ELIGIBLE_CACHE_CHARS = 16 * 1024 * 1024;

/** Eligible sets by tenant and capability, least recently used evicted first. */
export class EligibleChains {
  private readonly sets = new Map<string, EligibleSet>();
  private size = 0;

  constructor(private readonly maxSize: number = ELIGIBLE_CACHE_CHARS) {}

  private static key(tenantId: string, capabilityId: string): string {
    return `${tenantId.length}:${tenantId}${capabilityId}`;
  }

  get(tenantId: string, capabilityId: string): EligibleSet | undefined {
    const key = EligibleChains.key(tenantId, capabilityId);
    const set = this.sets.get(key);
    if (set) {
      this.sets.delete(key);
      this.sets.set(key, set);
    }
    return set;
  }

  /** Keeps the eligible bindings read at `publication` (fleetproof_eligible_bindings). */
  put(tenantId: string, capabilityId: string, publication: string, keys: readonly string[], tierEnds: readonly number[]): void {
    const rendered = { keys: arrayText(keys), tierEnds: arrayText(tierEnds) };
    const set: EligibleSet = { publication, ...rendered, size: rendered.keys.length + rendered.tierEnds.length + 64 };
    const key = EligibleChains.key(tenantId, capabilityId);
    const old = this.sets.get(key);
    if (old) {
      this.sets.delete(key);
      this.size -= old.size;
    }
    this.sets.set(key, set);
    this.size += set.size;
    for (const [k, s] of this.sets) {
      if (this.size <= this.maxSize || s === set) break;
      this.sets.delete(k);
      this.size -= s.size;
    }
  }
}

const p = IMPLICIT_DEFAULT_POLICY;
/** The implicit default policy as fleetproof_resolve takes it: revision, the six scope limits in scope order, the circuit. */
const DEFAULT_POLICY = arrayText([
  p.revision,
  p.max_global_in_flight,
  p.max_tenant_in_flight,
  p.max_connector_type_in_flight,
  p.max_instance_in_flight,
  p.max_binding_in_flight,
  p.max_tenant_retry_in_flight,
  p.circuit_failure_threshold,
  p.circuit_open_ms,
]);

export interface ResolveInputs {
  tenantId: string;
  req: ResolveRequest;
  /** The eligible set the caller holds for the tenant and capability, if any. */
  set: EligibleSet | undefined;
  nowMs: number;
  fenceToken: string;
  choices: ReferenceChoices;
}

/** What narrows a request's candidate replicas: its required capacity class and region (residency), each or null. */
function candidateFilter(req: ResolveRequest): { capacityClass: string | null; residency: string | null } {
  const pref: TopologyPreference = req.topology ?? {};
  return {
    capacityClass: pref.capacity_class ?? null,
    residency: pref.allow_cross_region === false && pref.region !== undefined ? pref.region : null,
  };
}

/**
 * The requests that meet the same candidate replicas, for the store's turns
 * (resolve-turns.ts): one tenant and capability with one candidate filter.
 */
export function turnKey(tenantId: string, req: ResolveRequest): string {
  const { capacityClass, residency } = candidateFilter(req);
  return JSON.stringify([tenantId, req.capability_id, capacityClass, residency]);
}

/** The arguments of resolve.sql, in the order fleetproof_resolve declares them. */
export function resolveArgs(i: ResolveInputs): unknown[] {
  const pref: TopologyPreference = i.req.topology ?? {};
  const { capacityClass, residency } = candidateFilter(i.req);
  const s = i.set ?? NO_SET;
  return [
    i.req.action_id,
    i.tenantId,
    i.req.capability_id,
    s.publication,
    s.keys,
    s.tierEnds,
    i.nowMs,
    toTimestamp(i.nowMs),
    i.fenceToken,
    capacityClass,
    residency,
    pref.region ?? null,
    pref.zone ?? null,
    tiebreakHash(i.req.action_id, i.choices.tiebreakSalt),
    DEFAULT_POLICY,
    SCOPE_OFF,
    i.choices.equalPriorityInstance === 'last',
  ];
}
