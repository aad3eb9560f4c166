import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { HarnessError, NotProvocable } from '../../harness/failure.ts';
import { definitionBytes } from '../../harness/sizes.ts';

export default defineCase({
  id: 'records/oversized-manifest-is-admission-rejected',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a canonical manifest above max_manifest_bytes is 422 even when each capability is within bounds',
  async run(ctx) {
    const { max_manifest_bytes: max, max_capability_bytes: each, max_capabilities_per_version: count, max_body_bytes: body } = ctx.limits;
    // Each definition as large as max_capability_bytes allows (at most 200 000 bytes), measured, never above it:
    // a capability over its own bound would let the refusal be for the capability instead.
    const padded = (i: number, padding: number) =>
      ctx.build.capability(ctx.ids.capability(`m${i}`), { input_schema: { description: 'x'.repeat(padding) } });
    const target = Math.min(each, 200_000);
    // Measured per capability: ids differ in length, and so does the room they leave.
    const sized = (i: number) => padded(i, target - definitionBytes(padded(i, 0)));
    const share = Buffer.byteLength(canonicalJson(sized(0)));
    const needed = Math.ceil((max + 1) / share) + 1;
    if (needed > count) throw new NotProvocable(`${count} capabilities of at most ${each} bytes never exceed max_manifest_bytes ${max}`);
    const type = await ctx.fx.type();
    const capabilities = Array.from({ length: needed }, (_, i) => sized(i));
    const v = ctx.build.version(ctx.ids.version(), type.id, capabilities);
    const size = Buffer.byteLength(canonicalJson(v.manifest));
    if (size <= max) throw new HarnessError(`the probe manifest has ${size} bytes, not above ${max}`);
    const largest = Math.max(...capabilities.map(definitionBytes));
    if (largest > each) throw new HarnessError(`a probe capability has ${largest} bytes, above max_capability_bytes ${each}`);
    const sent = Buffer.byteLength(JSON.stringify(v));
    if (sent > body)
      throw new NotProvocable(`a manifest above max_manifest_bytes ${max} takes a body of ${sent} bytes, above max_body_bytes ${body}`);
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }),
      'ADMISSION_REJECTED',
      undefined,
      `a manifest of ${size} bytes`,
    );
  },
});
