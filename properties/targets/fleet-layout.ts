// The records of the starting fleet, sized to the capabilities per version the
// registry declares. The design below puts up to three capabilities in one
// version; a registry may allow as few as one ([limits-declared]). Then each
// version is cut into parts of at most that many capabilities — each part a
// version of the same type, with the same profiles and status — each instance
// into one instance per part of its version, and each binding goes to the
// part that declares its capability. The types, tenants, capability ids,
// policies and the shape of the bindings stay as designed, so every route
// the design reaches is still reachable; only one instance no longer serves
// two capabilities. With three or more per version the layout is the design.
import type { RegistryLimits, VersionStatus } from '../../contract/records.ts';
import { CAPABILITIES, type CapabilityKey, type PolicyKey, type ProfileKey, type TenantKey, type TypeKey } from './fleet-names.ts';

/** A version of the layout: a design version's name, or a part of it (`alpha-2_notify`). */
export type VersionKey = string;
/** An instance of the layout: a design instance's name, or a part of it (`a-beta_archive`). */
export type InstanceKey = string;

export interface VersionSpec {
  type: TypeKey;
  version: string;
  capabilities: readonly CapabilityKey[];
  profiles: readonly ProfileKey[];
  status: VersionStatus;
}

export interface InstanceSpec {
  tenant: TenantKey;
  type: TypeKey;
  version: VersionKey;
}

export interface BindingSpec {
  tenant: TenantKey;
  capability: CapabilityKey;
  instance: InstanceKey;
  priority: number;
  policy: PolicyKey | null;
}

export type Bindable = Pick<BindingSpec, 'tenant' | 'capability' | 'instance'>;

/** `archive` is declared only by beta-1 and bound to nobody at first. */
const DESIGN_VERSIONS: Record<string, VersionSpec> = {
  'alpha-1': { type: 'alpha', version: '1.0.0', capabilities: ['search', 'fetch'], profiles: ['http'], status: 'active' },
  'alpha-2': {
    type: 'alpha',
    version: '2.0.0',
    capabilities: ['search', 'fetch', 'notify'],
    profiles: ['http', 'grpc'],
    status: 'admitted',
  },
  'beta-1': { type: 'beta', version: '1.0.0', capabilities: ['search', 'notify', 'archive'], profiles: ['grpc'], status: 'active' },
};

const DESIGN_INSTANCES: Record<string, InstanceSpec> = {
  'a-alpha': { tenant: 'a', type: 'alpha', version: 'alpha-1' },
  'a-beta': { tenant: 'a', type: 'beta', version: 'beta-1' },
  'b-alpha': { tenant: 'b', type: 'alpha', version: 'alpha-1' },
};

const DESIGN_BINDINGS: readonly BindingSpec[] = [
  { tenant: 'a', capability: 'search', instance: 'a-alpha', priority: 0, policy: 'tight' },
  { tenant: 'a', capability: 'search', instance: 'a-beta', priority: 1, policy: null },
  { tenant: 'a', capability: 'fetch', instance: 'a-alpha', priority: 0, policy: 'roomy' },
  { tenant: 'a', capability: 'notify', instance: 'a-beta', priority: 0, policy: 'tight' },
  { tenant: 'b', capability: 'search', instance: 'b-alpha', priority: 0, policy: 'tight' },
  { tenant: 'b', capability: 'fetch', instance: 'b-alpha', priority: 0, policy: null },
];

/** The most capabilities a design version declares: from this many per version on, nothing is cut. */
export const DESIGN_CAPABILITIES_PER_VERSION = Math.max(...Object.values(DESIGN_VERSIONS).map((v) => v.capabilities.length));

export interface FleetLayout {
  /** The capabilities one version of the layout declares at most. */
  readonly perVersion: number;
  readonly versions: Readonly<Record<VersionKey, VersionSpec>>;
  readonly versionKeys: readonly VersionKey[];
  readonly instances: Readonly<Record<InstanceKey, InstanceSpec>>;
  readonly instanceKeys: readonly InstanceKey[];
  readonly bindings: readonly BindingSpec[];
  /** Every binding a command may put: each capability on each instance, for the instance's tenant. */
  readonly bindable: readonly Bindable[];
}

function cut<T>(list: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
}

/** Part `i` of a design name: the first keeps the name, later ones add the capability they start with. */
const partName = (name: string, capabilities: readonly CapabilityKey[], i: number) => (i === 0 ? name : `${name}_${capabilities[0]}`);

export function fleetLayout(limits: Pick<RegistryLimits, 'max_capabilities_per_version'>): FleetLayout {
  const perVersion = Math.max(1, Math.min(limits.max_capabilities_per_version, DESIGN_CAPABILITIES_PER_VERSION));
  const versions: Record<VersionKey, VersionSpec> = {};
  const partsOf: Record<string, VersionKey[]> = {};
  for (const [name, spec] of Object.entries(DESIGN_VERSIONS)) {
    partsOf[name] = cut(spec.capabilities, perVersion).map((capabilities, i) => {
      const key = partName(name, capabilities, i);
      // Version strings are unique per type ([records-version-unique]): a part's is its design's plus its first capability.
      versions[key] = { ...spec, version: i === 0 ? spec.version : `${spec.version}-${capabilities[0]}`, capabilities };
      return key;
    });
  }
  const instances: Record<InstanceKey, InstanceSpec> = {};
  /** The part of a design instance that serves a capability. */
  const host: Record<string, Partial<Record<CapabilityKey, InstanceKey>>> = {};
  for (const [name, spec] of Object.entries(DESIGN_INSTANCES)) {
    host[name] = {};
    partsOf[spec.version]!.forEach((version, i) => {
      const key = partName(name, versions[version]!.capabilities, i);
      instances[key] = { ...spec, version };
      for (const c of versions[version]!.capabilities) host[name]![c] = key;
    });
  }
  const instanceKeys = Object.keys(instances);
  return {
    perVersion,
    versions,
    versionKeys: Object.keys(versions),
    instances,
    instanceKeys,
    bindings: DESIGN_BINDINGS.map((b) => ({ ...b, instance: host[b.instance]![b.capability]! })),
    bindable: instanceKeys.flatMap((instance) =>
      CAPABILITIES.map((capability) => ({ tenant: instances[instance]!.tenant, capability, instance })),
    ),
  };
}
