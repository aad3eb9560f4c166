import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { canonicalJson } from '../../../contract/canonical-json.js';
import { smallestCapabilities } from '../../harness/sizes.ts';

export default defineCase({
  id: 'records/too-many-capabilities-is-admission-rejected',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a manifest with one capability more than max_capabilities_per_version is 422',
  async run(ctx) {
    const count = ctx.limits.max_capabilities_per_version + 1;
    const type = await ctx.fx.type();
    const v = ctx.build.version(ctx.ids.version(), type.id, smallestCapabilities(ctx, count));
    // Over the manifest's byte bound as well, the refusal could be for the size alone.
    const manifestBytes = Buffer.byteLength(canonicalJson(v.manifest));
    if (manifestBytes > ctx.limits.max_manifest_bytes)
      throw new NotProvocable(
        `${count} capabilities of the smallest shape make a manifest of ${manifestBytes} bytes, above max_manifest_bytes ${ctx.limits.max_manifest_bytes}`,
      );
    const size = Buffer.byteLength(JSON.stringify(v));
    if (size > ctx.limits.max_body_bytes)
      throw new NotProvocable(`${count} capabilities take ${size} bytes, above max_body_bytes ${ctx.limits.max_body_bytes}`);
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }),
      'ADMISSION_REJECTED',
      undefined,
      `${count} capabilities`,
    );
  },
});
