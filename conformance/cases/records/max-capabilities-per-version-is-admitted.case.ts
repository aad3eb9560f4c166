import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { smallestCapabilities } from '../../harness/sizes.ts';

export default defineCase({
  id: 'records/max-capabilities-per-version-is-admitted',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a manifest with exactly max_capabilities_per_version capabilities, valid otherwise, is admitted',
  async run(ctx) {
    const { max_capabilities_per_version: count, max_manifest_bytes: manifest, max_body_bytes: body } = ctx.limits;
    const type = await ctx.fx.type();
    const v = ctx.build.version(ctx.ids.version(), type.id, smallestCapabilities(ctx, count));
    // Only more than max_capabilities_per_version may be refused; above the byte limits the refusal is theirs.
    const manifestBytes = Buffer.byteLength(canonicalJson(v.manifest));
    if (manifestBytes > manifest)
      throw new NotProvocable(
        `${count} capabilities of the smallest shape make a manifest of ${manifestBytes} bytes, above max_manifest_bytes ${manifest}`,
      );
    const size = Buffer.byteLength(JSON.stringify(v));
    if (size > body) throw new NotProvocable(`${count} capabilities take ${size} bytes, above max_body_bytes ${body}`);
    expectOk(await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }), `${count} capabilities`);
    const stored = expectOk(await ctx.reader.call('getVersion', { params: { version_id: v.id } }), 'the version afterwards');
    expectEqual(stored.manifest.capabilities.length, count, 'capabilities of the admitted version');
  },
});
