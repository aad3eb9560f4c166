import { isErrorCode, type ErrorBody } from '../../../contract/errors.ts';
import { ROLES } from '../../../contract/records.ts';
import { unchecked, type Reply } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectTrue } from '../../harness/expect.ts';
import { absentParams, sweptOperations } from '../../harness/sweep.ts';

export default defineCase({
  id: 'wire/error-codes-come-from-the-catalogue',
  clause: 'error-catalogue-only',
  category: 'wire',
  description: 'absent records, malformed bodies and a stale fence are refused with catalogue codes only',
  async run(ctx) {
    const everything = { roles: ROLES, tenant: ctx.ids.tenant() };
    for (const o of sweptOperations().filter((s) => s.roles !== null)) {
      const attempts = o.hasBody ? [unchecked([]), unchecked({ surprise: true }), unchecked('text')] : [undefined];
      for (const body of attempts) {
        const reply = await ctx.api.call(o.op, {
          params: absentParams(ctx.ids, o) as never,
          as: everything,
          ...(body ? { body, refusedBeforeStorage: 'error-no-server-error-on-input' as const } : {}),
        });
        if (reply.status !== 200) catalogued(reply, `${o.method} ${o.path}`);
      }
    }
    // A refusal the registry decides from state, not from the request's shape: a settlement whose fence token is not the route's.
    const fleet = await ctx.fx.fleet();
    const { assignment } = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const fence = `${assignment.fence_token.slice(0, -1)}${assignment.fence_token.endsWith('x') ? 'y' : 'x'}`;
    const stale = await ctx.dispatch(fleet.tenant).call('settleRoute', {
      params: { action_id: assignment.action_id },
      body: { assignment: { ...assignment, fence_token: fence }, outcome: 'completed' },
    });
    expectTrue(stale.status !== 200, 'a settlement with a fence token the route never had was accepted', stale.exchange);
    catalogued(stale, 'a settlement with a stale fence token');
  },
});

function catalogued(reply: Reply, what: string): void {
  const code = (reply.json as ErrorBody | undefined)?.error?.code;
  expectTrue(isErrorCode(code), `${what}: code ${String(code)} is not in the catalogue`, reply.exchange);
}
