import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

const EVIDENCE = ['conformance_status', 'vulnerability_policy_status', 'license_policy_status', 'revocation_status'] as const;

export default defineCase({
  id: 'records/failed-evidence-is-admission-rejected',
  clause: 'records-version-evidence',
  category: 'records',
  description: 'any evidence status failed or not_evaluated makes the admission 422',
  async run(ctx) {
    const type = await ctx.fx.type();
    const capabilities = [ctx.fx.capability()];
    for (const field of EVIDENCE) {
      for (const status of ['failed', 'not_evaluated'] as const) {
        const v = ctx.build.version(ctx.ids.version(), type.id, capabilities, { version: ctx.ids.semver() });
        const body = { ...v, attestation: { ...v.attestation, [field]: status } };
        expectError(
          await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body }),
          'ADMISSION_REJECTED',
          undefined,
          `${field} ${status}`,
        );
        expectError(
          await ctx.reader.call('getVersion', { params: { version_id: v.id } }),
          'NOT_FOUND',
          undefined,
          `the version with ${field} ${status}`,
        );
      }
    }
  },
});
