import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';

/**
 * The smallest item the contract's BatchItemEnvelope admits: an operation name alone. The batch refuses it
 * as a whole for its count, before any item is judged; alone it would be rejected by itself ([batch-items]).
 */
const SMALLEST_ITEM = { op: 'put_binding' } as const;

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
    // One real write first, so a registry that applies an oversized batch shows it; the rest as small as allowed.
    const first = { op: 'put_connector_type' as const, record: ctx.build.connectorType(ctx.ids.type()) };
    const items = [first, ...Array.from({ length: count - 1 }, () => SMALLEST_ITEM)];
    // No rule ties the body limit to the batch limit ([batch-items]): a body above it is a 413 whatever it holds.
    const body = JSON.stringify({ items });
    const bytes = Buffer.byteLength(body);
    if (bytes > ctx.limits.max_body_bytes)
      throw new NotProvocable(
        `${count} items, all but one ${JSON.stringify(SMALLEST_ITEM)}, take ${bytes} bytes, above max_body_bytes ${ctx.limits.max_body_bytes}`,
      );
    expectError(await admin.call('applyBatch', { rawBody: body }), 'INVALID_REQUEST', undefined, `a batch of ${count} items`);
    expectError(
      await ctx.reader.call('getConnectorType', { params: { type_id: first.record.id } }),
      'NOT_FOUND',
      undefined,
      'the first item of the refused batch',
    );
  },
});
