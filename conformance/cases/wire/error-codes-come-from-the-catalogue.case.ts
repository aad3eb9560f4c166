import { isErrorCode, type ErrorBody } from '../../../contract/errors.ts';
import { ROLES } from '../../../contract/records.ts';
import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectTrue } from '../../harness/expect.ts';
import { absentParams, sweptOperations } from '../../harness/sweep.ts';

export default defineCase({
  id: 'wire/error-codes-come-from-the-catalogue',
  clause: 'error-catalogue-only',
  category: 'wire',
  description: 'every operation refuses absent records and malformed bodies with catalogue codes only',
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
        if (reply.status === 200) continue;
        const code = (reply.json as ErrorBody).error.code;
        expectTrue(isErrorCode(code), `${o.method} ${o.path}: code ${String(code)} is not in the catalogue`, reply.exchange);
      }
    }
  },
});
