import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/identical-put-precedes-other-rules',
  clause: 'records-identical-put',
  category: 'records',
  description: 'retrying a write that took effect succeeds even when the record would now be refused',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    // Disabling the type would make a new admission ADMISSION_REJECTED; a retry of the stored one is still unchanged.
    expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: false } }));
    const retry = await ctx.admin.call('admitVersion', { params: { version_id: fleet.version.id }, body: fleet.version });
    expectEqual(expectOk(retry, 'retried admission').outcome, 'unchanged', 'retried admission of a disabled type', retry.exchange);
    // A revoked version no longer takes status changes; setting the status it has is still unchanged.
    expectOk(await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'revoked' } }));
    const again = await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'revoked' } });
    expectEqual(expectOk(again, 'repeated revocation').outcome, 'unchanged', 'repeated revocation', again.exchange);
  },
});
