import { defineCase } from '../../harness/define-case.ts';
import { expectOk, expectOneOf } from '../../harness/expect.ts';
import { nearKeys } from '../../harness/near-keys.ts';

export default defineCase({
  id: 'routing/action-ids-near-a-routed-one-are-not-found',
  clause: 'assignment-read',
  category: 'routing',
  description: 'an action id one byte, one part or one letter case away from a routed one reads 404, never its route',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const dispatch = ctx.dispatch(fleet.tenant);
    const action = ctx.ids.action();
    await ctx.fx.resolve(fleet.tenant, fleet.capability, action);
    const read = (id: string) => dispatch.call('getRoute', { params: { action_id: id } });
    expectOk(await read(action), 'the routed action itself');
    for (const near of nearKeys(action, '', new Set([action])))
      expectOneOf(await read(near.key), near.codes, `${action} with ${near.how} (${JSON.stringify(near.key)})`);
  },
});
