import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/manifest-digest-mismatch-is-admission-rejected',
  clause: 'records-version-manifest-digest',
  category: 'records',
  description: "a manifest_digest that is not the digest of the manifest's canonical JSON is 422",
  async run(ctx) {
    const type = await ctx.fx.type();
    const v = ctx.build.version(ctx.ids.version(), type.id, [ctx.fx.capability()]);
    const wrong = [
      ctx.build.fakeDigest('some other manifest'),
      ctx.build.digestOf({ ...v.manifest, profiles: [...v.manifest.profiles, 'extra.profile'] }),
    ];
    for (const manifest_digest of wrong) {
      expectError(
        await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: { ...v, manifest_digest } }),
        'ADMISSION_REJECTED',
      );
    }
    expectError(await ctx.reader.call('getVersion', { params: { version_id: v.id } }), 'NOT_FOUND', undefined, 'the version afterwards');
  },
});
