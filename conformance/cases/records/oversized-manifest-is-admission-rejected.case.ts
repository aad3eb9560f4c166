import { canonicalJson } from '../../../contract/canonical-json.js';
import type { Capability } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { HarnessError, NotProvocable } from '../../harness/failure.ts';
import { definitionBytes } from '../../harness/sizes.ts';

/** openapi.yaml's Manifest: at most 64 profiles of at most 128 characters each. */
const MOST_PROFILES = 64;
const LONGEST_PROFILE = 128;

export default defineCase({
  id: 'records/oversized-manifest-is-admission-rejected',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a manifest just above max_manifest_bytes is 422 though each capability is within bounds',
  async run(ctx) {
    const { max_manifest_bytes: max, max_capability_bytes: each, max_capabilities_per_version: count, max_body_bytes: body } = ctx.limits;
    const type = await ctx.fx.type();
    const padded = (i: number, padding: number) =>
      ctx.build.capability(ctx.ids.capability(`m${i}`), { input_schema: { description: 'x'.repeat(padding) } });
    // Each capability as large as max_capability_bytes allows (measured: ids differ in length), never above it,
    // so the refusal cannot be for a capability; the last one only as large as crossing max_manifest_bytes needs.
    const largest = (i: number) => padded(i, Math.max(0, Math.min(each, 4 * max) - definitionBytes(padded(i, 0))));
    const profile = (i: number, length: number) => `p${i}`.padEnd(length, 'x');
    const capabilities: Capability[] = [];
    const profiles = [profile(0, 2)];
    // The manifest's canonical JSON is {"capabilities":[c1,c2,…],"profiles":[…]}: its size is that of the same
    // manifest without capabilities, plus each capability's canonical bytes and the commas between them. Summed
    // as capabilities are added, so a manifest of hundreds of large capabilities is not serialised once per step.
    let capabilityBytes = 0;
    const added = (c: Capability) => Buffer.byteLength(canonicalJson(c)) + (capabilities.length > 0 ? 1 : 0);
    const sizeWith = (profs: string[], next?: Capability) =>
      Buffer.byteLength(canonicalJson({ capabilities: [], profiles: profs })) + capabilityBytes + (next ? added(next) : 0);
    while (capabilities.length < count && sizeWith(profiles) <= max) {
      const i = capabilities.length;
      const short = max + 1 - sizeWith(profiles, padded(i, 0));
      const full = largest(i);
      const next = short <= 0 ? padded(i, 0) : sizeWith(profiles, full) > max ? padded(i, short) : full;
      capabilityBytes += added(next);
      capabilities.push(next);
    }
    // The profiles are the rest of a manifest that can grow: after the capabilities, they fill what is left.
    while (profiles.length < MOST_PROFILES && sizeWith(profiles) <= max) {
      const i = profiles.length;
      const short = max + 1 - sizeWith([...profiles, profile(i, 2)]) + 2;
      profiles.push(profile(i, Math.max(2, Math.min(LONGEST_PROFILE, short))));
    }
    const v = ctx.build.version(ctx.ids.version(), type.id, capabilities, { profiles });
    const size = Buffer.byteLength(canonicalJson(v.manifest));
    if (size !== sizeWith(profiles))
      throw new HarnessError(`the manifest measured ${size} bytes where its parts add up to ${sizeWith(profiles)}`);
    if (size <= max)
      throw new NotProvocable(
        `${count} capabilities of at most ${each} bytes and ${MOST_PROFILES} profiles of ${LONGEST_PROFILE} characters make a manifest of ${size} bytes, not above max_manifest_bytes ${max}`,
      );
    const biggest = Math.max(...capabilities.map(definitionBytes));
    if (biggest > each) throw new HarnessError(`a probe capability has ${biggest} bytes, above max_capability_bytes ${each}`);
    const sent = Buffer.byteLength(JSON.stringify(v));
    if (sent > body)
      throw new NotProvocable(
        `the smallest manifest found above max_manifest_bytes ${max} (${size} bytes) takes a body of ${sent} bytes, above max_body_bytes ${body}`,
      );
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }),
      'ADMISSION_REJECTED',
      undefined,
      `a manifest of ${size} bytes (${capabilities.length} capabilities, ${profiles.length} profiles)`,
    );
  },
});
