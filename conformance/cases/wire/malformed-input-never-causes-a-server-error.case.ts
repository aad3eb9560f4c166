import { ROLES } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectTrue } from '../../harness/expect.ts';
import { absentParams, sweptOperations } from '../../harness/sweep.ts';

/** Bodies no schema accepts: broken encodings, absurd nesting and numbers, wrong shapes. */
const NASTY_BODIES: Array<string | Buffer> = [
  '[]',
  'null',
  '"text"',
  '{"a":1e400}',
  '{"id":"\\ud800"}',
  '{"id":"\\u0000"}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '['.repeat(2000) + ']'.repeat(2000),
  '{"x":'.repeat(300) + '1' + '}'.repeat(300),
  Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
  JSON.stringify({ items: Array.from({ length: 50 }, () => ({ op: 'nope' })) }),
];

/**
 * Path parameters with characters no id pattern allows, sent percent-encoded,
 * and one far longer than any id. The long one keeps the request target
 * within the 2 KiB every implementation serves ([wire-head-limits]): past
 * its own URL limit a registry rightly answers 414 instead.
 */
const NASTY_IDS = ['%00', '%2F..%2F', '%E2%80%AE', 'x'.repeat(1500), '%C3%28', '%20']; // lint-size: a path parameter, kept under the 2 KiB request target

export default defineCase({
  id: 'wire/malformed-input-never-causes-a-server-error',
  clause: 'error-no-server-error-on-input',
  category: 'wire',
  description: 'malformed bodies and path parameters on every operation are refused with a 4xx, never a 5xx',
  async run(ctx) {
    const everything = { roles: ROLES, tenant: ctx.ids.tenant() };
    for (const o of sweptOperations().filter((s) => s.roles !== null)) {
      const params = absentParams(ctx.ids, o) as never;
      // The client itself fails the case on a 5xx, citing this clause; a 2xx here would be just as wrong.
      for (const rawBody of o.hasBody ? NASTY_BODIES : []) {
        const reply = await ctx.api.call(o.op, { params, rawBody, as: everything, refusedBeforeStorage: 'error-no-server-error-on-input' });
        expectTrue(
          reply.status >= 400 && reply.status < 500,
          `${o.method} ${o.path} answered ${reply.status} to a malformed body`,
          reply.exchange,
        );
      }
      for (const name of o.pathParams) {
        for (const raw of NASTY_IDS) {
          const reply = await ctx.api.call(o.op, {
            params,
            rawParams: { [name]: raw } as never,
            as: everything,
            refusedBeforeStorage: 'error-no-server-error-on-input',
            ...(o.hasBody ? { rawBody: '{}' } : {}),
          });
          expectTrue(
            reply.status >= 400 && reply.status < 500,
            `${o.method} ${o.path} with ${name}=${raw.slice(0, 20)} answered ${reply.status}`,
            reply.exchange,
          );
        }
      }
    }
  },
});
