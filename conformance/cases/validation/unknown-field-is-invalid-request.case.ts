import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { sampleWrites, sendWrite } from '../../harness/writes.ts';

export default defineCase({
  id: 'validation/unknown-field-is-invalid-request',
  clause: 'wire-closed-records',
  category: 'validation',
  description: 'every write with one unknown field, at the top or nested, is 400 and creates nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    for (const write of sampleWrites(ctx, fleet)) {
      for (const name of ['extra_field', 'secret']) {
        const reply = await sendWrite(ctx, fleet, write, { ...write.body, [name]: 'x' });
        expectError(reply, 'INVALID_REQUEST', undefined, `${write.name} with ${name}`);
      }
      const nested = Object.entries(write.body).find(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
      if (nested) {
        const [key, value] = nested;
        const reply = await sendWrite(ctx, fleet, write, { ...write.body, [key]: { ...(value as object), extra_field: 1 } });
        expectError(reply, 'INVALID_REQUEST', undefined, `${write.name} with ${key}.extra_field`);
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
