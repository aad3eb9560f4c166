import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'leases/expiry-limit-of-max-expiry-batch-is-accepted',
  clause: 'lease-expiry-bounded',
  category: 'leases',
  // It may take offline any replica whose lease has passed, other cases' included.
  flags: ['serial'],
  description: 'a lease maintenance limit of 1 or of exactly max_expiry_batch is accepted',
  async run(ctx) {
    // The bounds themselves are legal: only below 1 or above max_expiry_batch is INVALID_REQUEST.
    for (const limit of new Set([1, ctx.limits.max_expiry_batch])) {
      const { expired } = expectOk(await ctx.operator.call('expireLeases', { body: { limit } }), `limit ${limit}`);
      expectAtLeast(expired, 0, `replicas changed with limit ${limit}`);
      expectAtMost(expired, limit, `replicas changed with limit ${limit}`);
    }
  },
});
