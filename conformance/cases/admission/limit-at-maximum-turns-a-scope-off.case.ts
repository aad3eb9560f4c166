import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/limit-at-maximum-turns-a-scope-off',
  clause: 'admission-scopes',
  category: 'admission',
  description: 'a limit of 4294967295 leaves that scope out of base_scopes, and the retry scope null',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_instance_in_flight: 3 } });
    const a = (await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment;
    expectEqual(
      a.admission.base_scopes,
      [{ kind: 'instance', key: fleet.instance.id, limit: 3 }],
      'base scopes with only the instance limit set',
    );
    expectEqual(a.admission.retry_scope, null, 'retry scope with the retry limit off');
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 0, 'the tenant counter of a scope that is off');
  },
});
