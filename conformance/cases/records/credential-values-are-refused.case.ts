import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/credential-values-are-refused',
  clause: 'records-no-credentials',
  category: 'records',
  description: 'a credential value in any field is 400, and no response ever echoes one',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const secret = `sk-live-${ctx.ids.prefix}`;
    const instanceParams = { instance_id: fleet.instance.id };
    const next = { ...fleet.instance, config_revision: 2 };
    const b = fleet.binding;
    const bindingParams = { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id };
    const replies = [
      await ctx.admin.call('putInstance', { params: instanceParams, body: unchecked({ ...next, secret_provider_ref: secret }) }),
      await ctx.admin.call('putInstance', { params: instanceParams, body: unchecked({ ...next, api_key: secret }) }),
      await ctx.admin.call('putInstance', { params: instanceParams, body: unchecked({ ...next, credentials: { token: secret } }) }),
      await ctx.admin.call('putBinding', {
        params: bindingParams,
        body: unchecked({ ...b, policy_revision: b.policy_revision + 1, credential: secret }),
      }),
      await ctx.admin.call('putBinding', {
        params: bindingParams,
        body: unchecked({ ...b, policy_revision: b.policy_revision + 1, credential_revision_ref: `${secret} with spaces` }),
      }),
    ];
    for (const reply of replies) {
      expectError(reply, 'INVALID_REQUEST');
      expectTrue(!reply.text.includes(secret), 'the refusal echoes the credential value back', reply.exchange);
    }
  },
});
