import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { sampleWrites, sendWrite } from '../../harness/writes.ts';

/** Members the schema makes optional: leaving them out is no error. */
const OPTIONAL = new Set(['topology']);

export default defineCase({
  id: 'validation/missing-field-is-invalid-request',
  clause: 'wire-closed-records',
  category: 'validation',
  description: 'every write missing any one required field is 400 and creates nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    for (const write of sampleWrites(ctx, fleet)) {
      for (const field of Object.keys(write.body).filter((k) => !(write.op === 'resolveRoute' && OPTIONAL.has(k)))) {
        const { [field]: _dropped, ...rest } = write.body;
        expectError(await sendWrite(ctx, fleet, write, rest), 'INVALID_REQUEST', undefined, `${write.name} without ${field}`);
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
