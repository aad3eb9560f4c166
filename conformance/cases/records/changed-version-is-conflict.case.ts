import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk, expectUnchangedOrConflict } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/changed-version-is-conflict',
  clause: 'records-version-immutable',
  category: 'records',
  description: 'readmitting a version with an admission field changed is 409; with only its status, 409 or unchanged',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const v = fleet.version;
    const changes = [
      { version: ctx.ids.semver() },
      { attestation: { ...v.attestation, signer_identity: 'another signer' } },
      { attestation: { ...v.attestation, sbom_digest: ctx.build.fakeDigest('another sbom') } },
    ];
    for (const change of changes) {
      const reply = await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: { ...v, ...change } });
      expectError(reply, 'CONFLICT', undefined, `version with ${Object.keys(change).join(', ')} changed`);
    }
    // The status alone: a registry may compare the admission without it, as for the original body after a status change.
    const statusOnly = await ctx.admin.call('admitVersion', {
      params: { version_id: v.id },
      body: { ...v, status: v.status === 'admitted' ? 'active' : 'admitted' },
    });
    expectUnchangedOrConflict(statusOnly, 'version with only its status changed');
    const stored = expectOk(await ctx.reader.call('getVersion', { params: { version_id: v.id } }));
    const { supply_chain_qualified: _q, admitted_at: _a, ...admission } = stored;
    expectIdentical(admission, v, 'the stored admission');
  },
});
