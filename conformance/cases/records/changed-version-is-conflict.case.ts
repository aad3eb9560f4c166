import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/changed-version-is-conflict',
  clause: 'records-version-immutable',
  category: 'records',
  description: 'admitting an existing version id with any admission field changed is 409',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const v = fleet.version;
    const changes = [
      { version: ctx.ids.semver() },
      { status: 'admitted' as const },
      { attestation: { ...v.attestation, signer_identity: 'another signer' } },
      { attestation: { ...v.attestation, sbom_digest: ctx.build.fakeDigest('another sbom') } },
    ];
    for (const change of changes) {
      const reply = await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: { ...v, ...change } });
      expectError(reply, 'CONFLICT', undefined, `version with ${Object.keys(change).join(', ')} changed`);
    }
    const stored = expectOk(await ctx.reader.call('getVersion', { params: { version_id: v.id } }));
    const { supply_chain_qualified: _q, admitted_at: _a, ...admission } = stored;
    expectIdentical(admission, v, 'the stored admission');
  },
});
