import { canonicalJson } from '../../../contract/canonical-json.js';
import { sha256Hex } from '../../../contract/digest.ts';
import type { Capability } from '../../../contract/records.ts';
import type { CaseContext } from '../../harness/context.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOneOf, expectTrue } from '../../harness/expect.ts';
import { versionNestedTo } from '../../harness/nesting.ts';

// Object levels in canonical member order, so the text is its own canonical JSON and digests as it stands.
const OPEN = '{"properties":{"inner":';
const CLOSE = '},"type":"object"}';
const SOME_DIGEST = `sha256:${'0'.repeat(64)}`;

/**
 * A version body whose capability schema nests 2 × `repeats` object levels, built as text so the harness never
 * recurses over it, with the manifest digest of that text; and whether its manifest and capability definition
 * stay within the declared size limits ([records-version-limits]).
 */
function deepVersion(ctx: CaseContext, typeId: string, repeats: number) {
  const nested = OPEN.repeat(repeats) + '{"type":"string"}' + CLOSE.repeat(repeats);
  const capability = ctx.build.capability(ctx.ids.capability(), { input_schema: 'nested' as unknown as Capability['input_schema'] });
  const version = ctx.build.version(ctx.ids.version(), typeId, [capability], { version: ctx.ids.semver() });
  const withNested = (value: unknown) => canonicalJson(value).replace('"nested"', nested);
  const manifest = withNested(version.manifest);
  const definition = withNested({ capability, contract_digest: SOME_DIGEST, schema_digest: SOME_DIGEST });
  const body = JSON.stringify({ ...version, manifest_digest: `sha256:${sha256Hex(manifest)}` }).replace('"nested"', nested);
  const withinSizes =
    Buffer.byteLength(manifest) <= ctx.limits.max_manifest_bytes && Buffer.byteLength(definition) <= ctx.limits.max_capability_bytes;
  return { id: version.id, body, withinSizes };
}

export default defineCase({
  id: 'wire/deep-nesting-is-invalid-request',
  clause: 'wire-nesting',
  category: 'wire',
  description: 'a version admission nested 129 levels deep, or as deep as the body limit allows, is 400, not a crash',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    // Just past the bound, valid in every other rule: only INVALID_REQUEST is right.
    const past = versionNestedTo(ctx, fleet.type.id, 129);
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: past.id }, body: past }),
      'INVALID_REQUEST',
      undefined,
      'a body 129 levels deep',
    );
    expectError(
      await ctx.reader.call('getVersion', { params: { version_id: past.id } }),
      'NOT_FOUND',
      undefined,
      'the version nested 129 deep',
    );
    // As deep as a body within max_body_bytes can hold (at most 10 000 levels), for parsers that recurse. A body this
    // large may also break a size limit of the manifest, and the registry may answer for that instead ([error-precedence]).
    const room = Math.floor(
      (ctx.limits.max_body_bytes - deepVersion(ctx, fleet.type.id, 0).body.length - 1024) / (OPEN.length + CLOSE.length),
    );
    const deep = deepVersion(ctx, fleet.type.id, Math.max(100, Math.min(5_000, room)));
    const reply = await ctx.admin.call('admitVersion', { params: { version_id: deep.id }, rawBody: deep.body });
    expectTrue(reply.status < 500, `a body nested as deep as the body limit allows answered ${reply.status}`, reply.exchange);
    if (deep.withinSizes) expectError(reply, 'INVALID_REQUEST', undefined, 'a body nested as deep as the body limit allows');
    else expectOneOf(reply, ['INVALID_REQUEST', 'ADMISSION_REJECTED'], 'a body nested past the bound and over a manifest size limit');
    expectError(
      await ctx.reader.call('getVersion', { params: { version_id: deep.id } }),
      'NOT_FOUND',
      undefined,
      'the deeply nested version',
    );
  },
});
