import { ROLES } from '../../../contract/records.ts';
import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectTrue } from '../../harness/expect.ts';
import { absentParams, sweptOperations } from '../../harness/sweep.ts';

export default defineCase({
  id: 'auth-and-isolation/missing-role-is-forbidden',
  clause: 'auth-roles',
  category: 'auth-and-isolation',
  description: 'a valid token holding every role except the one an operation names is 403',
  async run(ctx) {
    const named = sweptOperations().filter((o) => o.roles !== null && o.roles.length > 0);
    expectTrue(named.length >= 20, `openapi.yaml names roles on ${named.length} operations`);
    const tenant = ctx.ids.tenant();
    for (const o of named) {
      const others = ROLES.filter((r) => !o.roles!.includes(r));
      const reply = await ctx.api.call(o.op, {
        params: absentParams(ctx.ids, o) as never,
        ...(o.hasBody ? { body: unchecked({}) } : {}),
        as: { roles: others, tenant },
        refusedBeforeStorage: 'auth-before-state',
      });
      expectError(reply, 'FORBIDDEN', undefined, `${o.method} ${o.path} without ${o.roles!.join(' ')}`);
    }
  },
});
