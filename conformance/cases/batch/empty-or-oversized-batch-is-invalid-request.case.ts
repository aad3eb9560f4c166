import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { smallestBatch } from '../../harness/sizes.ts';

export default defineCase({
  id: 'batch/empty-or-oversized-batch-is-invalid-request',
  clause: 'batch-items',
  category: 'batch',
  flags: ['slow'],
  description: 'a batch of 0 items, or one more than max_batch_items, is 400 and applies nothing',
  async run(ctx) {
    const admin = ctx.as({ roles: ['registry:admin'] });
    expectError(await admin.call('applyBatch', { body: { items: [] } }), 'INVALID_REQUEST', undefined, 'an empty batch');
    const count = ctx.limits.max_batch_items + 1;
    // The batch is refused as a whole for its count, before any item is judged ([batch-items]).
    const { first, body, bytes } = smallestBatch(ctx, count);
    // No rule ties the body limit to the batch limit ([batch-items]): a body above it is a 413 whatever it holds.
    if (bytes > ctx.limits.max_body_bytes)
      throw new NotProvocable(
        `${count} items, all but one {"op":"put_binding"}, take ${bytes} bytes, above max_body_bytes ${ctx.limits.max_body_bytes}`,
      );
    expectError(await admin.call('applyBatch', { rawBody: body }), 'INVALID_REQUEST', undefined, `a batch of ${count} items`);
    expectError(
      await ctx.reader.call('getConnectorType', { params: { type_id: first.id } }),
      'NOT_FOUND',
      undefined,
      'the first item of the refused batch',
    );
  },
});
