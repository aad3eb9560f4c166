import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { absentParams, sweptOperations } from '../../harness/sweep.ts';

export default defineCase({
  id: 'auth-and-isolation/missing-token-is-unauthenticated',
  clause: 'auth-bearer',
  category: 'auth-and-isolation',
  description: 'every /v1/ operation refuses a request without an Authorization header with 401',
  async run(ctx) {
    const protectedOps = sweptOperations().filter((o) => o.roles !== null);
    for (const o of protectedOps) {
      const reply = await ctx.anonymous.call(o.op, {
        params: absentParams(ctx.ids, o) as never,
        ...(o.hasBody ? { body: unchecked({}) } : {}),
        refusedBeforeStorage: 'auth-before-state',
      });
      expectError(reply, 'UNAUTHENTICATED', undefined, `${o.method} ${o.path} without a token`);
    }
  },
});
