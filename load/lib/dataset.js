// The scale qualification dataset (fleetproof-scale/v1): the shape of
// getaip/core's aip-fleet-slo-v1 fleet, every dimension overridable. Plain
// JavaScript so the k6 scripts, the benchmarks and the PostgreSQL index tests
// seed the same records. Every id embeds the run id, so runs never collide.
import { recordBuilders } from '../../contract/builders.js';

/** @typedef {import('../../contract/records.ts').BatchItem} BatchItem */

/**
 * @typedef {object} Dimensions
 * @property {number} tenants
 * @property {number} connector_types
 * @property {number} capabilities
 * @property {number} capabilities_per_version
 * @property {number} instances        one replica per instance
 * @property {number} bindings_per_instance
 * @property {number} replica_capacity
 */

/** @type {Readonly<Dimensions>} */
export const AIP_FLEET_DIMENSIONS = Object.freeze({
  tenants: 100,
  connector_types: 1000,
  capabilities: 1000,
  capabilities_per_version: 100,
  instances: 10000,
  bindings_per_instance: 10,
  replica_capacity: 100,
});

/** @param {number} n @param {number} width */
const pad = (n, width) => String(n).padStart(width, '0');

/** @param {Dimensions} d */
export function validateDimensions(d) {
  for (const [name, value] of Object.entries(d)) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`dataset dimension ${name} must be a positive integer`);
  }
  if (d.capabilities < d.capabilities_per_version) throw new Error('capabilities must be at least capabilities_per_version');
  if (d.bindings_per_instance > d.capabilities_per_version) throw new Error('bindings_per_instance cannot exceed capabilities_per_version');
  if (d.instances < d.connector_types) throw new Error('instances must be at least connector_types');
  if (d.instances < d.tenants) throw new Error('instances must be at least tenants');
}

/**
 * Every base scope (global, tenant, connector type, instance, binding) limited to `limit`; retries stay off.
 * @param {number} limit
 */
function scopesAt(limit) {
  return {
    max_global_in_flight: limit,
    max_tenant_in_flight: limit,
    max_connector_type_in_flight: limit,
    max_instance_in_flight: limit,
    max_binding_in_flight: limit,
  };
}

/**
 * @param {object} options
 * @param {string} options.runId        letters and digits only
 * @param {Partial<Dimensions>} [options.dimensions]
 * @param {(text: string) => string} options.sha256Hex
 * @param {number} options.leaseUntilMs lease end of every seeded replica
 * @param {number} [options.scopeLimit] when set, every base admission scope of the run's policy has this limit
 *   instead of being off, so routes reserve on real scopes and the audit has counters to reconcile
 */
export function scaleDataset({ runId, dimensions = {}, sha256Hex, leaseUntilMs, scopeLimit }) {
  if (!/^[A-Za-z0-9]{1,40}$/.test(runId)) throw new Error('runId must be 1-40 letters or digits');
  /** @type {Dimensions} */
  const d = { ...AIP_FLEET_DIMENSIONS, ...dimensions };
  validateDimensions(d);
  const b = recordBuilders(sha256Hex);

  const ids = {
    policy: `quota:scale:${runId}`,
    /** @param {number} k 1-based */
    tenant: (k) => `tenant-${runId}-${pad(k, 3)}`,
    /** @param {number} t */
    type: (t) => `ctype_${runId}_${pad(t, 6)}`,
    /** @param {number} t */
    version: (t) => `cver_${runId}_${pad(t, 6)}`,
    /** @param {number} c */
    capability: (c) => `cap:${runId}:${pad(c, 6)}`,
    /** @param {number} i */
    instance: (i) => `cinst_${runId}_${pad(i, 8)}`,
    /** @param {number} i */
    replica: (i) => `crepl_${runId}_${pad(i, 8)}`,
  };

  /** Type of instance i, tenant of instance i (both 1-based). */
  const typeOf = (/** @type {number} */ i) => ((i - 1) % d.connector_types) + 1;
  const tenantOf = (/** @type {number} */ i) => ((i - 1) % d.tenants) + 1;
  /** Capability number of slot s (1-based) of type t. */
  const slot = (/** @type {number} */ t, /** @type {number} */ s) => (((t - 1) * d.capabilities_per_version + s - 1) % d.capabilities) + 1;

  /** @param {number} t */
  function version(t) {
    const caps = [];
    for (let s = 1; s <= d.capabilities_per_version; s++) caps.push(b.capability(ids.capability(slot(t, s))));
    return b.version(ids.version(t), ids.type(t), caps);
  }

  /** @param {number} i */
  function replica(i) {
    return b.replica(ids.replica(i), ids.instance(i), ids.version(typeOf(i)), leaseUntilMs, { capacity: d.replica_capacity });
  }

  /**
   * Every record as batch items, in dependency order, `size` per batch.
   * @param {number} size
   * @returns {Generator<BatchItem[]>}
   */
  function* batches(size) {
    /** @type {BatchItem[]} */
    let batch = [];
    /** @param {BatchItem} item */
    const push = (item) => {
      batch.push(item);
      if (batch.length === size) {
        const full = batch;
        batch = [];
        return full;
      }
      return null;
    };
    /** @type {Array<() => Generator<BatchItem>>} */
    const phases = [
      function* () {
        yield { op: 'put_admission_policy', record: b.policy(ids.policy, scopeLimit ? scopesAt(scopeLimit) : {}) };
      },
      function* () {
        for (let t = 1; t <= d.connector_types; t++) yield { op: 'put_connector_type', record: b.connectorType(ids.type(t)) };
      },
      function* () {
        for (let t = 1; t <= d.connector_types; t++) yield { op: 'admit_version', record: version(t) };
      },
      function* () {
        for (let i = 1; i <= d.instances; i++) {
          const t = typeOf(i);
          yield { op: 'put_instance', record: b.instance(ids.instance(i), ids.type(t), ids.version(t), ids.tenant(tenantOf(i))) };
        }
      },
      function* () {
        for (let i = 1; i <= d.instances; i++) yield { op: 'provision_replica', record: replica(i) };
      },
      function* () {
        for (let i = 1; i <= d.instances; i++) {
          for (let s = 1; s <= d.bindings_per_instance; s++) {
            const record = b.binding(ids.tenant(tenantOf(i)), ids.capability(slot(typeOf(i), s)), ids.instance(i), {
              quota_policy_ref: ids.policy,
            });
            yield { op: 'put_binding', record };
          }
        }
      },
    ];
    for (const phase of phases) {
      for (const item of phase()) {
        const full = push(item);
        if (full) yield full;
      }
      // A batch never mixes phases, so each batch needs one role only.
      if (batch.length > 0) {
        yield batch;
        batch = [];
      }
    }
  }

  /**
   * The capabilities tenant k (1-based) can route: one per binding slot.
   * @param {number} k
   */
  function tenantCapabilities(k) {
    const caps = new Set();
    for (let i = k; i <= d.instances; i += d.tenants) {
      for (let s = 1; s <= d.bindings_per_instance; s++) caps.add(ids.capability(slot(typeOf(i), s)));
    }
    return [...caps].sort();
  }

  /**
   * Replicas eligible for tenant k and a capability, in the seeded state.
   * @param {number} k
   * @param {string} capabilityId
   */
  function eligibleReplicas(k, capabilityId) {
    const out = [];
    for (let i = k; i <= d.instances; i += d.tenants) {
      for (let s = 1; s <= d.bindings_per_instance; s++) {
        if (ids.capability(slot(typeOf(i), s)) === capabilityId) {
          out.push(ids.replica(i));
          break;
        }
      }
    }
    return out;
  }

  /**
   * The instances behind eligibleReplicas (instance i has replica i).
   * @param {number} k
   * @param {string} capabilityId
   */
  function eligibleInstances(k, capabilityId) {
    return eligibleReplicas(k, capabilityId).map((id) => id.replace(/^crepl_/, 'cinst_'));
  }

  /**
   * The capability of binding slot 1 of tenant k's first instance: the one
   * the qualification routes for that tenant (capability 1 for tenant 1).
   * @param {number} k
   */
  function primaryCapability(k) {
    return ids.capability(slot(typeOf(k), 1));
  }

  /** The binding seeded last: once it is readable, the whole dataset is. */
  function lastBinding() {
    const i = d.instances;
    return {
      tenant_id: ids.tenant(tenantOf(i)),
      capability_id: ids.capability(slot(typeOf(i), d.bindings_per_instance)),
      instance_id: ids.instance(i),
    };
  }

  return {
    dimensions: d,
    ids,
    builders: b,
    batches,
    tenantCapabilities,
    eligibleReplicas,
    eligibleInstances,
    primaryCapability,
    lastBinding,
    version,
    typeOf,
    tenantOf,
    counts: {
      connector_types: d.connector_types,
      versions: d.connector_types,
      capabilities: Math.min(d.capabilities, d.connector_types * d.capabilities_per_version),
      instances: d.instances,
      replicas: d.instances,
      bindings: d.instances * d.bindings_per_instance,
    },
  };
}
