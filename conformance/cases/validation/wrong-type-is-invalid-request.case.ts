import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { sampleWrites, sendWrite } from '../../harness/writes.ts';

/** A value of another JSON type than `value`, never acceptable where `value` is. */
function otherType(value: unknown): unknown {
  if (typeof value === 'string') return 12;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 0;
  if (Array.isArray(value)) return { items: value };
  if (value === null) return [];
  return [value];
}

export default defineCase({
  id: 'validation/wrong-type-is-invalid-request',
  clause: 'wire-closed-records',
  category: 'validation',
  description: 'every write with any one top-level field of the wrong JSON type is 400',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    for (const write of sampleWrites(ctx, fleet)) {
      for (const [field, value] of Object.entries(write.body)) {
        const reply = await sendWrite(ctx, fleet, write, { ...write.body, [field]: otherType(value) });
        expectError(reply, 'INVALID_REQUEST', undefined, `${write.name} with ${field} = ${JSON.stringify(otherType(value)).slice(0, 40)}`);
      }
      if (write.read)
        expectError(
          await ctx.reader.call(write.read.op, { params: write.read.params as never }),
          'NOT_FOUND',
          undefined,
          `${write.name} after the refusals`,
        );
    }
  },
});
