// Catalog visibility (spec.md §7).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anonymous, b, internal, tenant, withWorld, type StoreFactory } from './world.ts';

const ids = (page: { capabilities: Array<{ capability: { id: string } }> }) => page.capabilities.map((d) => d.capability.id);

export function catalogBehaviour(factory: StoreFactory): void {
  describe('catalog visibility', () => {
    it('[catalog-tenant-visibility] each of the five conditions hides the capability', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'vis' });
        const cap = f.capabilityIds[0]!;
        const visible = async () => ids(await w.store.queryCatalog({}, tenant('tenant-a'))).includes(cap);
        assert.equal(await visible(), true);
        assert.deepEqual(ids(await w.store.queryCatalog({}, tenant('tenant-b'))), [], 'another tenant sees nothing');
        const toggles: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
          [
            'binding disabled',
            () => w.store.putBinding({ ...f.binding, enabled: false, policy_revision: 10 }),
            () => w.store.putBinding({ ...f.binding, policy_revision: 11 }),
          ],
          [
            'instance disabled',
            () => w.store.putInstance({ ...f.instance, status: 'disabled', config_revision: 10 }),
            () => w.store.putInstance({ ...f.instance, config_revision: 11 }),
          ],
          [
            'version admitted',
            () => w.store.setVersionStatus(f.version.id, 'admitted'),
            () => w.store.setVersionStatus(f.version.id, 'active'),
          ],
          ['type disabled', () => w.store.setConnectorTypeEnabled(f.typeId, false), () => w.store.setConnectorTypeEnabled(f.typeId, true)],
        ];
        for (const [what, hide, restore] of toggles) {
          await hide();
          assert.equal(await visible(), false, `${what} should hide the capability`);
          await restore();
          assert.equal(await visible(), true, `restoring after ${what}`);
        }
        await w.store.setVersionStatus(f.version.id, 'revoked');
        assert.equal(await visible(), false, 'a revoked version hides the capability');
      }));

    it('[catalog-tenant-visibility] the version must implement the capability and declare the profile', () =>
      withWorld(factory, async (w) => {
        await w.fleet({ name: 'prof', capabilities: ['cap:prof:a', 'cap:prof:b'], bound: ['cap:prof:a'] });
        assert.deepEqual(
          ids(await w.store.queryCatalog({}, tenant('tenant-a'))),
          ['cap:prof:a'],
          'unbound capabilities of the version stay hidden',
        );
        assert.deepEqual(ids(await w.store.queryCatalog({ profile: 'aip.native.http.v1' }, tenant('tenant-a'))), ['cap:prof:a']);
        assert.deepEqual(ids(await w.store.queryCatalog({ profile: 'other.profile.v1' }, tenant('tenant-a'))), []);
      }));

    it('[catalog-no-context] no tenant and no internal permission shows nothing', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'noctx' });
        const page = await w.store.queryCatalog({}, anonymous);
        assert.deepEqual(page.capabilities, []);
        assert.equal(page.total, 0);
        assert.equal(await w.store.getCapability(f.capabilityIds[0]!, anonymous), null);
      }));

    it('[catalog-internal] the internal view needs no binding but an active version of an enabled type', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'int', capabilities: ['cap:int:a', 'cap:int:b'], bound: [] });
        assert.deepEqual(ids(await w.store.queryCatalog({}, internal)), ['cap:int:a', 'cap:int:b']);
        await w.store.setConnectorTypeEnabled(f.typeId, false);
        assert.deepEqual(ids(await w.store.queryCatalog({}, internal)), []);
        await w.store.setConnectorTypeEnabled(f.typeId, true);
        await w.store.setVersionStatus(f.version.id, 'admitted');
        assert.deepEqual(ids(await w.store.queryCatalog({}, internal)), []);
      }));

    it('[catalog-tenant-precedence] a tenant context wins over unbound', () =>
      withWorld(factory, async (w) => {
        await w.fleet({ name: 'prec', capabilities: ['cap:prec:a', 'cap:prec:b'], bound: ['cap:prec:a'] });
        const both = { tenant_id: 'tenant-a', allow_unbound: true };
        assert.deepEqual(ids(await w.store.queryCatalog({}, both)), ['cap:prec:a']);
        assert.equal(await w.store.getCapability('cap:prec:b', both), null);
      }));

    it('[catalog-filters] exact id, profile and trimmed literal case-insensitive text', () =>
      withWorld(factory, async (w) => {
        const caps = ['cap:filt:alpha', 'cap:filt:beta', 'cap:filt:gamma'];
        const f = await w.fleet({ name: 'filt', capabilities: caps });
        await w.store.putConnectorType(b.connectorType('ctype_filt_text'));
        const odd = b.capability('cap:filt:odd', { name: 'Percent 100% Under_Score', description: 'Mixed CASE text' });
        await w.store.admitVersion(b.version('cver_filt_text', 'ctype_filt_text', [odd]));
        await w.store.putInstance(b.instance('cinst_filt_text', 'ctype_filt_text', 'cver_filt_text', 'tenant-a'));
        await w.store.putBinding(b.binding('tenant-a', odd.id, 'cinst_filt_text'));
        const q = async (query: object) => ids(await w.store.queryCatalog(query, tenant('tenant-a')));
        assert.deepEqual(await q({ capability_id: 'cap:filt:beta' }), ['cap:filt:beta']);
        assert.deepEqual(await q({ capability_id: 'cap:filt' }), []);
        assert.deepEqual(await q({ text: '  GAMMA ' }), ['cap:filt:gamma']);
        assert.deepEqual(await q({ text: 'mixed case' }), ['cap:filt:odd']);
        assert.deepEqual(await q({ text: '100%' }), ['cap:filt:odd']);
        assert.deepEqual(await q({ text: '1%0' }), [], '% is literal, not a wildcard');
        assert.deepEqual(await q({ text: 'under_score' }), ['cap:filt:odd']);
        assert.deepEqual(await q({ text: 'under score' }), [], '_ is literal, not a wildcard');
        assert.deepEqual(await q({ text: '   ' }), [...caps, 'cap:filt:odd'].sort(), 'blank text is no filter');
        assert.deepEqual(await q({ text: 'alpha', capability_id: 'cap:filt:beta' }), [], 'filters combine with AND');
        assert.equal(f.capabilityIds.length, 3);
      }));

    it('[catalog-get] one capability with the current revision, or nothing', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'get' });
        const got = await w.store.getCapability(f.capabilityIds[0]!, tenant('tenant-a'));
        assert.ok(got);
        assert.equal(got.catalog_revision, await w.store.catalogRevision());
        assert.deepEqual(got.definition.capability, f.version.manifest.capabilities[0]);
        assert.equal(got.definition.contract_digest, b.digestOf(got.definition.capability));
        assert.equal(await w.store.getCapability(f.capabilityIds[0]!, tenant('tenant-b')), null);
        assert.equal(await w.store.getCapability('cap:nothing', tenant('tenant-a')), null);
      }));

    it('[digest-capability] definitions carry the contract and schema digests', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'dig' });
        const page = await w.store.queryCatalog({}, tenant('tenant-a'));
        const def = page.capabilities[0]!;
        const cap = f.version.manifest.capabilities[0]!;
        assert.equal(def.contract_digest, b.digestOf(cap));
        assert.equal(def.schema_digest, b.digestOf({ input: cap.input_schema, output: cap.output_schema ?? null }));
      }));
  });
}
