// The small, fixed fleet every property run starts from, named logically
// ("tenant a", "instance a-alpha", "replica a-alpha/2") so that generated
// commands and printed counterexamples read the same on every target. A run
// maps the logical names to wire ids under its own namespace, so runs against
// a shared registry (a vendor's server, one PostgreSQL database) never meet.
//
// The shape is chosen to make the interesting cases reachable in a few
// commands: two tenants sharing capability ids, two connector types, a second
// version for rollouts that is admitted but not yet active, two bindings of
// different priority for one capability, small capacities and a tight policy.
// Its versions, instances and bindings are laid out in fleet-layout.ts to fit
// the registry's limits.
import { recordBuilders, SCOPE_OFF } from '../../contract/builders.js';
import { sha256Hex } from '../../contract/digest.ts';
import type { AdmissionPolicy, Capability, Topology } from '../../contract/records.ts';
import type { FleetLayout, InstanceKey, VersionKey } from './fleet-layout.ts';
import {
  CAPABILITIES,
  POLICIES,
  PROFILES,
  TENANTS,
  TYPES,
  type CapabilityKey,
  type PolicyKey,
  type ProfileKey,
  type TenantKey,
  type TypeKey,
} from './fleet-names.ts';

export type { InstanceKey, VersionKey, CapabilityKey, PolicyKey, ProfileKey, TenantKey, TypeKey };
export { CAPABILITIES, POLICIES, PROFILES, TENANTS, TYPES };

/** Replica slots per instance: the first two exist from the start, the others are provisioned by commands. */
export const REPLICA_SLOTS = [1, 2, 3, 4] as const;
export type ReplicaSlot = (typeof REPLICA_SLOTS)[number];
export const INITIAL_SLOTS: readonly ReplicaSlot[] = [1, 2];
export const INITIAL_CAPACITY = 2;

export const SLOT_TOPOLOGY: Record<ReplicaSlot, Topology> = {
  1: { region: 'eu', zone: 'eu-1', capacity_class: 'standard' },
  2: { region: 'us', zone: 'us-1', capacity_class: 'standard' },
  3: { region: 'eu', zone: 'eu-2', capacity_class: 'large' },
  4: { region: 'us', zone: 'us-2', capacity_class: 'standard' },
};

/** Limits of the seeded policies; `tight` makes every scope reachable with a handful of routes. */
export const POLICY_LIMITS: Record<PolicyKey, Omit<AdmissionPolicy, 'policy_ref'>> = {
  tight: {
    revision: 1,
    enabled: true,
    max_global_in_flight: 8,
    max_tenant_in_flight: 4,
    max_connector_type_in_flight: 5,
    max_instance_in_flight: 3,
    max_binding_in_flight: 2,
    max_tenant_retry_in_flight: 1,
    circuit_failure_threshold: 2,
    circuit_open_ms: 300,
  },
  roomy: {
    revision: 1,
    enabled: true,
    max_global_in_flight: SCOPE_OFF,
    max_tenant_in_flight: SCOPE_OFF,
    max_connector_type_in_flight: SCOPE_OFF,
    max_instance_in_flight: SCOPE_OFF,
    max_binding_in_flight: SCOPE_OFF,
    max_tenant_retry_in_flight: 2,
    circuit_failure_threshold: 3,
    circuit_open_ms: 60_000,
  },
};

export const ACTIONS = ['act-1', 'act-2', 'act-3', 'act-4', 'act-5', 'act-6'] as const;
export type ActionKey = (typeof ACTIONS)[number];

export const builders = recordBuilders(sha256Hex);

/** Wire ids of one run: every logical name under the run's namespace. */
export class Universe {
  constructor(
    /** Empty for a fresh store, or a short tag ending in '.' for a shared registry. */
    readonly ns: string,
    /** The fleet's records, sized to the registry's declared limits. */
    readonly layout: FleetLayout,
  ) {}

  tenant(t: TenantKey): string {
    return `${this.ns}tenant-${t}`;
  }
  capability(c: CapabilityKey): string {
    return `${this.ns}${c}`;
  }
  profile(p: ProfileKey): string {
    return `${this.ns}${p}`;
  }
  type(t: TypeKey): string {
    return `ctype_${this.ns}${t}`;
  }
  version(v: VersionKey): string {
    return `cver_${this.ns}${v}`;
  }
  instance(i: InstanceKey): string {
    return `cinst_${this.ns}${i}`;
  }
  replica(i: InstanceKey, slot: ReplicaSlot): string {
    return `crepl_${this.ns}${i}.${slot}`;
  }
  policy(p: PolicyKey): string {
    return `${this.ns}quota.${p}`;
  }
  action(a: ActionKey): string {
    return `${this.ns}${a}`;
  }
  /** A credential revision reference; `n` counts rotations. */
  credential(n: number): string {
    return `${this.ns}credential-${n}`;
  }

  capabilityRecord(c: CapabilityKey): Capability {
    return builders.capability(this.capability(c), { name: `${c} capability`, description: `Runs ${c} for the property suites.` });
  }

  /** The logical name of a wire id, for readable messages; the id itself when unknown. */
  describe(wireId: string): string {
    const bare = wireId.replace(/^(ctype|cver|cinst|crepl)_/, '');
    return this.ns && bare.startsWith(this.ns) ? bare.slice(this.ns.length) : bare;
  }
}
