import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/request-naming-a-target-is-invalid-request',
  clause: 'route-request',
  category: 'routing',
  description: 'a resolve carrying an instance, replica, endpoint, credential, peer key or tenant is 400',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 5 });
    const r = fleet.replicas[0]!;
    const fields = [
      { instance_id: fleet.instance.id },
      { replica_id: r.id },
      { endpoint: r.endpoint },
      { credential_revision_ref: 'credential-revision-1' },
      { credential: 'secret' },
      { peer_did: r.peer_did },
      { tenant_id: fleet.tenant },
      { topology: { region: 'global', replica_id: r.id } },
    ];
    for (const field of fields) {
      const body = { action_id: ctx.ids.action(), capability_id: fleet.capability, ...field };
      expectError(
        await ctx.dispatch(fleet.tenant).call('resolveRoute', { body: unchecked(body) }),
        'INVALID_REQUEST',
        undefined,
        `resolve with ${Object.keys(field)[0]}`,
      );
    }
    expectEqual(await ctx.fx.active(r.id), 0, 'active assignments after the refusals');
  },
});
