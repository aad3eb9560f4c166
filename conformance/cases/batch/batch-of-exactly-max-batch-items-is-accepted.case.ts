import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { smallestBatch } from '../../harness/sizes.ts';

export default defineCase({
  id: 'batch/batch-of-exactly-max-batch-items-is-accepted',
  clause: 'batch-items',
  category: 'batch',
  flags: ['slow'],
  description: 'a batch of exactly max_batch_items items is applied item by item, with a result for each',
  async run(ctx) {
    const admin = ctx.as({ roles: ['registry:admin'] });
    const count = ctx.limits.max_batch_items;
    // One real write, then items rejected each by itself: the batch as a whole is within its count.
    const { first, body, bytes } = smallestBatch(ctx, count);
    // No rule ties the body limit to the batch limit ([batch-items]): a body above it is a 413 whatever it holds.
    if (bytes > ctx.limits.max_body_bytes)
      throw new NotProvocable(
        `${count} items, all but one {"op":"put_binding"}, take ${bytes} bytes, above max_body_bytes ${ctx.limits.max_body_bytes}`,
      );
    const { results } = expectOk(await admin.call('applyBatch', { rawBody: body }), `a batch of ${count} items`);
    expectEqual(results.length, count, 'results for a batch of max_batch_items items');
    expectEqual(results[0]?.outcome, 'applied', 'the first item, a new connector type');
    expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: first.id } }), 'the first item afterwards');
  },
});
