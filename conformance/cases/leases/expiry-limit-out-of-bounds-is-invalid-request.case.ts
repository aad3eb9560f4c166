import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'leases/expiry-limit-out-of-bounds-is-invalid-request',
  clause: 'lease-expiry-bounded',
  category: 'leases',
  description: 'a lease maintenance limit of 0, below 0 or above max_expiry_batch is 400',
  async run(ctx) {
    for (const limit of [0, -1, ctx.limits.max_expiry_batch + 1]) {
      expectError(await ctx.operator.call('expireLeases', { body: unchecked({ limit }) }), 'INVALID_REQUEST', undefined, `limit ${limit}`);
    }
    expectError(await ctx.operator.call('expireLeases', { body: unchecked({}) }), 'INVALID_REQUEST', undefined, 'no limit');
  },
});
