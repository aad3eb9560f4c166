import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/assignment-fields-come-from-their-sources',
  clause: 'assignment-fields',
  category: 'routing',
  description: 'an assignment copies its work, target, peer, binding and replica fields from their sources',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      topology: { region: 'eu', zone: 'eu-2', capacity_class: 'large' },
      replicas: [{ health_revision: 7 }],
    });
    const r = fleet.replicas[0]!;
    const action = ctx.ids.action();
    const before = await ctx.fx.revision();
    const sent = ctx.clock.now();
    const a = (await ctx.fx.resolve(fleet.tenant, fleet.capability, action)).assignment;
    const after = await ctx.fx.revision();
    const { fence_token: _token, admission: _admission, assigned_at, catalog_revision, ...copied } = a;
    expectIdentical(
      copied,
      {
        action_id: action,
        capability_id: fleet.capability,
        tenant_id: fleet.tenant,
        instance_id: fleet.instance.id,
        version_id: fleet.version.id,
        manifest_digest: fleet.version.manifest_digest,
        replica_id: r.id,
        endpoint: r.endpoint,
        peer_principal_id: r.peer_principal_id,
        peer_principal_kind: r.peer_principal_kind,
        peer_did: r.peer_did,
        trust_domain: r.trust_domain,
        transport_profile: r.transport_profile,
        topology: r.topology,
        binding_policy_revision: fleet.binding.policy_revision,
        credential_revision_ref: fleet.binding.credential_revision_ref,
        quota_policy_ref: null,
        replica_health_revision: 7,
      },
      'the copied fields',
    );
    expectAtLeast(catalog_revision, before, 'catalog_revision against the revision read before');
    expectAtMost(catalog_revision, after, 'catalog_revision against the revision read after');
    const margin = 5000 + ctx.clock.uncertaintyMs;
    expectAtLeast(Date.parse(assigned_at), sent - margin, 'assigned_at against the server clock');
    expectAtMost(Date.parse(assigned_at), ctx.clock.now() + margin, 'assigned_at against the server clock');
  },
});
