// Phase `version_rollout`: the last connector type gets version 1.0.1; its
// instance moves to it, the old replica drains and a new replica serves the
// new version. Afterwards exactly one ready replica serves the new version
// on that instance.
import { rolloutIds } from '../lib/fleet-facts.js';
import { journal } from '../lib/journal.js';
import { batchResults, bodyOf, expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { verify } from '../lib/verify.js';

const PHASE = 'version_rollout';

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 */
export async function versionRollout(plan, data) {
  const client = registryClient(plan, PHASE);
  const r = rolloutIds(plan, data);
  const b = data.builders;
  const old = data.version(r.type);
  const next = b.version(r.newVersion, data.ids.type(r.type), old.manifest.capabilities, { version: '1.0.1' });
  const tenant = data.ids.tenant(data.tenantOf(r.type));
  const lease = data.builders.replica(r.oldReplica, r.instance, old.id, plan.lease_until_ms).lease_expires_at;
  const capacity = data.dimensions.replica_capacity;
  const items = [
    { op: 'admit_version', record: next },
    { op: 'put_instance', record: b.instance(r.instance, data.ids.type(r.type), r.newVersion, tenant, { config_revision: 2 }) },
    { op: 'report_health', id: r.oldReplica, report: { health_revision: 2, status: 'draining', lease_expires_at: lease, capacity } },
    {
      op: 'provision_replica',
      record: b.replica(r.newReplica, r.instance, r.newVersion, plan.lease_until_ms, { capacity, health_revision: 2 }),
    },
  ];
  const res = await send(client.batch(items));
  const results = batchResults(res);
  const applied = results.filter((/** @type {{ outcome: string }} */ x) => x.outcome !== 'rejected').length;
  verify(PHASE, '01 rollout: version, instance, drain and new replica applied', applied === items.length, JSON.stringify(results));
  journal({ k: 'replica_created', phase: PHASE, id: r.newReplica });

  const [fresh, drained] = (await sendAll([client.replica(r.newReplica), client.replica(r.oldReplica)])).map((read) =>
    expectResponse(read, ['200']) ? bodyOf(read) : null,
  );
  const ready = [fresh, drained].filter((x) => x && x.status === 'ready' && x.version_id === r.newVersion);
  verify(PHASE, '02 rollout: exactly one ready replica serves the new version', ready.length === 1);
  verify(PHASE, '03 rollout: the old replica drains', Boolean(drained) && drained.status === 'draining');
}
