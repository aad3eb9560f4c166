// Catalog revision (spec.md §6).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { b, HOUR, withWorld, type StoreFactory } from './world.ts';

export function revisionBehaviour(factory: StoreFactory): void {
  describe('catalog revision', () => {
    it('[revision-monotonic] starts at 0 and never decreases', () =>
      withWorld(factory, async (w) => {
        assert.equal(await w.store.catalogRevision(), 0);
        let last = 0;
        await w.fleet({ name: 'mono' });
        for (const step of [
          () => w.store.putAdmissionPolicy(b.policy('quota:mono')),
          () => w.store.setConnectorTypeEnabled('ctype_mono', false),
        ]) {
          await step();
          const now = await w.store.catalogRevision();
          assert.ok(now > last, `revision went from ${last} to ${now}`);
          last = now;
        }
      }));

    it('[revision-advances] every catalog change advances the revision in the same step', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'adv', capabilities: ['cap:adv:a', 'cap:adv:b'] });
        const writes: Array<[string, () => Promise<{ catalog_revision: number; outcome: string }>]> = [
          ['policy', () => w.store.putAdmissionPolicy(b.policy('quota:adv'))],
          ['type', () => w.store.putConnectorType(b.connectorType('ctype_adv_two'))],
          ['type enabled', () => w.store.setConnectorTypeEnabled('ctype_adv_two', false)],
          ['version', () => w.store.admitVersion(b.version('cver_adv_2', f.typeId, f.version.manifest.capabilities, { version: '2.0.0' }))],
          ['version status', () => w.store.setVersionStatus('cver_adv_2', 'admitted')],
          ['instance', () => w.store.putInstance({ ...f.instance, config_revision: 2 })],
          ['binding', () => w.store.putBinding({ ...f.binding, priority: 3, policy_revision: 2 })],
        ];
        for (const [what, write] of writes) {
          const before = await w.store.catalogRevision();
          const result = await write();
          assert.equal(result.outcome, 'applied', what);
          assert.ok(result.catalog_revision > before, `${what} did not advance the revision`);
          assert.equal(await w.store.catalogRevision(), result.catalog_revision, `${what}: result and store disagree`);
        }
      }));

    it('[revision-stable] replica churn, routing, settlement and expiry keep the revision', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'stable', replicas: 2 });
        const rev = await w.store.catalogRevision();
        await w.store.provisionReplica(b.replica('crepl_stable_9', f.instance.id, f.version.id, w.now() + HOUR));
        await w.health(f.replicas[0]!.id, { leaseMs: w.now() + 2 * HOUR });
        await w.health(f.replicas[0]!.id, { capacity: 20 });
        await w.health(f.replicas[1]!.id, { status: 'draining' });
        const view = await w.resolve('tenant-a', 'act-stable', f.capabilityIds[0]!);
        await w.settle(view, 'outcome_unknown');
        await w.health(f.replicas[0]!.id, { leaseMs: w.now() - 1 });
        await w.store.expireLeases(10);
        assert.equal(await w.store.catalogRevision(), rev);
      }));

    it('[revision-in-results] write results and pages report the revision they were taken at', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'inres' });
        const page = await w.store.queryCatalog({}, { tenant_id: 'tenant-a', allow_unbound: false });
        assert.equal(page.catalog_revision, await w.store.catalogRevision());
        const same = await w.store.putInstance(f.instance);
        assert.equal(same.catalog_revision, page.catalog_revision);
        const health = await w.health(f.replicas[0]!.id, { capacity: 3 });
        assert.equal(health.catalog_revision, page.catalog_revision);
      }));
  });
}
