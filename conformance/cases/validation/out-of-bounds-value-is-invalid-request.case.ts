import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { sampleWrites, sendWrite } from '../../harness/writes.ts';

/** Per write, values of the right JSON type that openapi.yaml's bounds and patterns exclude. */
const OUT_OF_BOUNDS: Record<string, Array<Record<string, unknown>>> = {
  'connector type': [{ name: '' }, { name: ' padded ' }, { owner: 'x'.repeat(257) }],
  version: [{ version: '' }, { version: '-1.0' }, { status: 'candidate' }, { manifest_digest: `sha256:${'A'.repeat(64)}` }],
  instance: [{ secret_provider_ref: 'not a uri' }, { status: 'paused' }, { tenant_id: '-leading-dash' }],
  binding: [{ priority: -1 }, { priority: 2147483648 }, { credential_revision_ref: '' }],
  'admission policy': [{ max_global_in_flight: 4294967296 }, { max_instance_in_flight: 0 }, { circuit_open_ms: 3600001 }],
  replica: [
    { capacity: 0 },
    { capacity: 1000001 },
    { endpoint: 'ftp://replica.invalid/' },
    { peer_did: 'not-a-did' },
    { status: 'broken' },
  ],
  'health report': [{ capacity: 0 }, { status: 'sleeping' }],
  resolve: [{ action_id: '' }, { action_id: 'a'.repeat(257) }, { topology: { region: 'has space' } }],
};

export default defineCase({
  id: 'validation/out-of-bounds-value-is-invalid-request',
  clause: 'wire-closed-records',
  category: 'validation',
  description: 'values outside the bounds and patterns of openapi.yaml are 400 and create nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    for (const write of sampleWrites(ctx, fleet)) {
      for (const change of OUT_OF_BOUNDS[write.name] ?? []) {
        const reply = await sendWrite(ctx, fleet, write, { ...write.body, ...change });
        expectError(reply, 'INVALID_REQUEST', undefined, `${write.name} with ${JSON.stringify(change).slice(0, 60)}`);
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
