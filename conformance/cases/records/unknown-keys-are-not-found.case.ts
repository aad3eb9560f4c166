import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/unknown-keys-are-not-found',
  clause: 'records-reads',
  category: 'records',
  description: 'a read of a well-formed key that names no record is 404',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const r = ctx.reader;
    const ids = ctx.ids;
    expectError(await r.call('getConnectorType', { params: { type_id: ids.type('absent') } }), 'NOT_FOUND', undefined, 'type');
    expectError(await r.call('getVersion', { params: { version_id: ids.version('absent') } }), 'NOT_FOUND', undefined, 'version');
    expectError(await r.call('getInstance', { params: { instance_id: ids.instance('absent') } }), 'NOT_FOUND', undefined, 'instance');
    expectError(await r.call('getReplica', { params: { replica_id: ids.replica('absent') } }), 'NOT_FOUND', undefined, 'replica');
    expectError(await r.call('getAdmissionPolicy', { params: { policy_ref: ids.policy('absent') } }), 'NOT_FOUND', undefined, 'policy');
    const binding = { tenant_id: fleet.tenant, capability_id: ids.capability('absent'), instance_id: fleet.instance.id };
    expectError(await r.call('getBinding', { params: binding }), 'NOT_FOUND', undefined, 'binding of an unbound capability');
    expectError(
      await r.call('getBinding', { params: { ...fleet.binding, tenant_id: ids.tenant('absent') } as never }),
      'NOT_FOUND',
      undefined,
      'binding of another tenant',
    );
  },
});
