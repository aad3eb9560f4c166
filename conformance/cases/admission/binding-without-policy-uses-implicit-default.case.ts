import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';
import { sha256Hex } from '../../harness/fixtures.ts';

export default defineCase({
  id: 'admission/binding-without-policy-uses-implicit-default',
  clause: 'admission-implicit-default',
  category: 'admission',
  description: 'a binding without quota_policy_ref pins the implicit default policy',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const a = (await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment;
    const bindingKey = `sha256:${sha256Hex(`${fleet.tenant}\u001f${fleet.capability}\u001f${fleet.instance.id}`)}`;
    expectEqual(
      a.admission,
      {
        policy_ref: null,
        policy_revision: 1,
        base_scopes: [
          { kind: 'tenant', key: fleet.tenant, limit: 1000 },
          { kind: 'instance', key: fleet.instance.id, limit: 500 },
          { kind: 'binding', key: bindingKey, limit: 250 },
        ],
        retry_scope: { kind: 'tenant_retry', key: fleet.tenant, limit: 100 },
        circuit_failure_threshold: 5,
        circuit_open_ms: 30000,
      },
      'admission of a route under the implicit default',
    );
    expectEqual(a.quota_policy_ref, null, 'quota_policy_ref');
  },
});
