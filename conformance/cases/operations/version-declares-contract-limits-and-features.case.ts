import { CONTRACT_VERSION } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'operations/version-declares-contract-limits-and-features',
  clause: 'ops-version',
  category: 'operations',
  description: 'GET /version answers without a token with implementation, contract version, limits and features',
  async run(ctx) {
    const reply = await ctx.anonymous.call('getVersionInfo');
    const v = expectOk(reply);
    expectEqual(v.contract, CONTRACT_VERSION, 'contract', reply.exchange);
    expectEqual(v.limits, ctx.version.limits, 'limits: the same on every read', reply.exchange);
    expectAtLeast(v.limits.max_batch_items, 1000, 'max_batch_items', reply.exchange);
    expectEqual(Array.isArray(v.features), true, 'features is a list', reply.exchange);
  },
});
