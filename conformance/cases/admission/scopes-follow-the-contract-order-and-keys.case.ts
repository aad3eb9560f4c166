import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';
import { sha256Hex } from '../../harness/fixtures.ts';

export default defineCase({
  id: 'admission/scopes-follow-the-contract-order-and-keys',
  clause: 'admission-scopes',
  category: 'admission',
  description: "base scopes come in the contract's order, with its keys and the policy's limits",
  async run(ctx) {
    // A global limit just below "off", so other clients' use of the shared global counter cannot refuse this case.
    const limits = {
      max_global_in_flight: 4294967294,
      max_tenant_in_flight: 12,
      max_connector_type_in_flight: 13,
      max_instance_in_flight: 14,
      max_binding_in_flight: 15,
      max_tenant_retry_in_flight: 16,
    };
    const fleet = await ctx.fx.fleet({ policy: limits });
    const a = (await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment;
    const bindingKey = `sha256:${sha256Hex(`${fleet.tenant}\u001f${fleet.capability}\u001f${fleet.instance.id}`)}`;
    expectEqual(
      a.admission.base_scopes,
      [
        { kind: 'global', key: 'fleet', limit: 4294967294 },
        { kind: 'tenant', key: fleet.tenant, limit: 12 },
        { kind: 'connector_type', key: fleet.type.id, limit: 13 },
        { kind: 'instance', key: fleet.instance.id, limit: 14 },
        { kind: 'binding', key: bindingKey, limit: 15 },
      ],
      'base scopes',
    );
    expectEqual(a.admission.retry_scope, { kind: 'tenant_retry', key: fleet.tenant, limit: 16 }, 'retry scope');
    expectEqual(await ctx.fx.counter('binding', bindingKey), 1, 'the binding counter under its digest key');
  },
});
