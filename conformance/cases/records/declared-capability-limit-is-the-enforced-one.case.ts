import { canonicalJson } from '../../../contract/canonical-json.js';
import type { Capability } from '../../../contract/records.ts';
import type { CaseContext } from '../../harness/context.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { smallestCapabilities } from '../../harness/sizes.ts';

/**
 * A version of `capabilities` (of the smallest shape) with a version string of its own, or why the byte limits would
 * refuse it first.
 */
function versionOf(ctx: CaseContext, typeId: string, capabilities: Capability[]): ReturnType<CaseContext['build']['version']> | string {
  const count = capabilities.length;
  const v = ctx.build.version(ctx.ids.version(), typeId, capabilities, { version: ctx.ids.semver() });
  const manifestBytes = Buffer.byteLength(canonicalJson(v.manifest));
  if (manifestBytes > ctx.limits.max_manifest_bytes)
    return `${count} capabilities of the smallest shape make a manifest of ${manifestBytes} bytes, above max_manifest_bytes ${ctx.limits.max_manifest_bytes}`;
  const size = Buffer.byteLength(JSON.stringify(v));
  return size > ctx.limits.max_body_bytes
    ? `${count} capabilities take ${size} bytes, above max_body_bytes ${ctx.limits.max_body_bytes}`
    : v;
}

export default defineCase({
  id: 'records/declared-capability-limit-is-the-enforced-one',
  clause: 'limits-declared',
  category: 'records',
  flags: ['slow'],
  description: 'exactly max_capabilities_per_version capabilities are admitted and one more is 422',
  async run(ctx) {
    const count = ctx.limits.max_capabilities_per_version;
    const type = await ctx.fx.type();
    // Only the capability count may decide: above the byte limits the refusal would be theirs.
    const atLimit = versionOf(ctx, type.id, smallestCapabilities(ctx, count));
    if (typeof atLimit === 'string') throw new NotProvocable(atLimit);
    expectOk(await ctx.admin.call('admitVersion', { params: { version_id: atLimit.id }, body: atLimit }), `${count} capabilities`);
    const stored = expectOk(await ctx.reader.call('getVersion', { params: { version_id: atLimit.id } }), 'the version afterwards');
    expectEqual(stored.manifest.capabilities.length, count, 'capabilities of the admitted version');
    // Capabilities of their own and a version string of its own: one rule broken, the count ([error-precedence]).
    const past = versionOf(
      ctx,
      type.id,
      smallestCapabilities(ctx, count + 1).map((c, i) => ({ ...c, id: ctx.ids.capability(`p${i}`) })),
    );
    // One past the limit no byte limit lets through: no client can see a count limit enforced above the declared one.
    if (typeof past === 'string') return;
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: past.id }, body: past }),
      'ADMISSION_REJECTED',
      undefined,
      `${count + 1} capabilities`,
    );
  },
});
