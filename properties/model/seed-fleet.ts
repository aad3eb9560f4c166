// Puts the universe's starting fleet into a fresh run in one batch and builds
// the model state that fleet implies. Every item must apply: a registry that
// refuses the seed cannot be judged, so that is a harness error, not a
// counterexample.
import type { BatchItem, ReplicaProvision } from '../../contract/records.ts';
import type { RunContext } from '../targets/target.ts';
import { bindingKey, counterName, emptyState, type ModelState } from './model-state.ts';
import { RegistryModel } from './registry-model.ts';
import { untilAnswered } from './until-answered.ts';
import {
  builders as b,
  INITIAL_CAPACITY,
  INITIAL_SLOTS,
  POLICIES,
  POLICY_LIMITS,
  SLOT_TOPOLOGY,
  TYPES,
  type InstanceKey,
  type ReplicaSlot,
  type Universe,
} from '../targets/universe.ts';

/** Leases of seeded and provisioned replicas end this far after the run's start. */
export const LEASE_MS = 3_600_000;

export function replicaRecord(u: Universe, instance: InstanceKey, slot: ReplicaSlot, versionId: string, leaseMs: number): ReplicaProvision {
  return b.replica(u.replica(instance, slot), u.instance(instance), versionId, leaseMs, {
    capacity: INITIAL_CAPACITY,
    topology: SLOT_TOPOLOGY[slot],
  });
}

export function seedItems(u: Universe, nowMs: number): BatchItem[] {
  const items: BatchItem[] = [];
  const { versions, instances, bindings } = u.layout;
  for (const t of TYPES) items.push({ op: 'put_connector_type', record: b.connectorType(u.type(t)) });
  for (const [v, spec] of Object.entries(versions)) {
    const record = b.version(
      u.version(v),
      u.type(spec.type),
      spec.capabilities.map((c) => u.capabilityRecord(c)),
      {
        version: spec.version,
        status: spec.status,
        profiles: spec.profiles.map((p) => u.profile(p)),
      },
    );
    items.push({ op: 'admit_version', record });
  }
  for (const p of POLICIES) items.push({ op: 'put_admission_policy', record: { policy_ref: u.policy(p), ...POLICY_LIMITS[p] } });
  for (const [key, spec] of Object.entries(instances)) {
    items.push({
      op: 'put_instance',
      record: b.instance(u.instance(key), u.type(spec.type), u.version(spec.version), u.tenant(spec.tenant)),
    });
  }
  for (const bs of bindings) {
    const record = b.binding(u.tenant(bs.tenant), u.capability(bs.capability), u.instance(bs.instance), {
      priority: bs.priority,
      credential_revision_ref: u.credential(1),
      quota_policy_ref: bs.policy === null ? null : u.policy(bs.policy),
    });
    items.push({ op: 'put_binding', record });
  }
  for (const [key, spec] of Object.entries(instances)) {
    for (const slot of INITIAL_SLOTS)
      items.push({ op: 'provision_replica', record: replicaRecord(u, key, slot, u.version(spec.version), nowMs + LEASE_MS) });
  }
  return items;
}

/** The model state after the seed items applied, at the revision the batch reported. */
export function stateAfterSeed(items: BatchItem[], revision: number): ModelState {
  const s = emptyState();
  s.revision = revision;
  for (const item of items) {
    switch (item.op) {
      case 'put_connector_type':
        s.types[item.record.id] = { enabled: item.record.enabled };
        break;
      case 'admit_version': {
        const r = item.record;
        s.versions[r.id] = {
          id: r.id,
          type: r.connector_type_id,
          status: r.status,
          capabilities: r.manifest.capabilities.map((c) => c.id),
          profiles: [...r.manifest.profiles],
          manifestDigest: r.manifest_digest,
        };
        break;
      }
      case 'put_admission_policy':
        s.policies[item.record.policy_ref] = item.record;
        break;
      case 'put_instance':
        s.instances[item.record.id] = item.record;
        break;
      case 'put_binding':
        s.bindings[bindingKey(item.record)] = item.record;
        break;
      case 'provision_replica': {
        const { health_revision, status, lease_expires_at, capacity } = item.record;
        s.replicas[item.record.id] = {
          provision: item.record,
          health: { health_revision, status, lease_expires_at, capacity },
          leaseMs: Date.parse(lease_expires_at),
          active: 0,
          failures: 0,
          openUntil: 0,
          openUntilSpan: 0,
        };
        break;
      }
      default:
        throw new Error(`seed items hold no ${item.op}`);
    }
  }
  return s;
}

export async function seedFleet(run: RunContext): Promise<RegistryModel> {
  // The global counter is shared by every run on a shared registry; the model starts from what it holds now.
  const globalBaseline = (await run.store.getAdmissionCounter('global', 'fleet')).active;
  const items = seedItems(run.u, run.clock.now());
  const { value: result, resent } = await untilAnswered(run, () => run.store.applyBatch(items));
  // A batch sent again after a lost answer finds its own records: unchanged, not refused.
  const refused = result.results.filter((r) => r.outcome !== 'applied' && !(resent && r.outcome === 'unchanged'));
  if (refused.length > 0) {
    const first = refused[0]!;
    const why = first.outcome === 'rejected' ? `${first.error.code}: ${first.error.message}` : first.outcome;
    throw new Error(`the registry did not apply the seed fleet: item ${first.index} (${items[first.index]!.op}) was ${why}`);
  }
  const s = stateAfterSeed(items, result.catalog_revision);
  if (globalBaseline > 0) s.counters[counterName('global', 'fleet')] = globalBaseline;
  return new RegistryModel(run.u, s, run.clock.manual);
}
