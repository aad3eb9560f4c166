import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/reads-return-stored-records',
  clause: 'records-reads',
  category: 'records',
  description: 'readers get types, versions, instances, bindings, replicas and policies by key as written',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 7 } });
    const r = ctx.reader;
    const b = fleet.binding;
    expectIdentical(expectOk(await r.call('getConnectorType', { params: { type_id: fleet.type.id } })), fleet.type, 'connector type');
    const version = expectOk(await r.call('getVersion', { params: { version_id: fleet.version.id } }));
    const { supply_chain_qualified: _q, admitted_at: _a, ...admission } = version;
    expectIdentical(admission, fleet.version, 'version');
    expectIdentical(expectOk(await r.call('getInstance', { params: { instance_id: fleet.instance.id } })), fleet.instance, 'instance');
    const binding = expectOk(
      await r.call('getBinding', { params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id } }),
    );
    expectIdentical(binding, b, 'binding');
    expectIdentical(
      expectOk(await r.call('getAdmissionPolicy', { params: { policy_ref: fleet.policy!.policy_ref } })),
      fleet.policy,
      'admission policy',
    );
    const replica = await ctx.fx.replicaState(fleet.replicas[0]!.id);
    const { active_assignments, circuit, ...provisioned } = replica;
    expectIdentical(provisioned, fleet.replicas[0], 'replica');
    expectEqual([active_assignments, circuit.state], [0, 'closed'], 'registry-owned replica state');
  },
});
