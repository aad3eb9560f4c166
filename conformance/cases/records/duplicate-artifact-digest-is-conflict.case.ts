import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/duplicate-artifact-digest-is-conflict',
  clause: 'records-version-unique',
  category: 'records',
  description: 'a second version with an artifact digest already admitted, of any type, is 409',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const artifact = fleet.version.attestation.artifact_digest;
    const sameType = ctx.build.version(ctx.ids.version(), fleet.type.id, fleet.capabilities, { version: ctx.ids.semver() });
    sameType.attestation.artifact_digest = artifact;
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: sameType.id }, body: sameType }),
      'CONFLICT',
      undefined,
      'same type, same artifact',
    );
    const other = await ctx.fx.type();
    const otherType = ctx.build.version(ctx.ids.version(), other.id, fleet.capabilities, { version: ctx.ids.semver() });
    otherType.attestation.artifact_digest = artifact;
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: otherType.id }, body: otherType }),
      'CONFLICT',
      undefined,
      'another type, same artifact',
    );
    expectError(
      await ctx.reader.call('getVersion', { params: { version_id: otherType.id } }),
      'NOT_FOUND',
      undefined,
      'the refused version',
    );
  },
});
