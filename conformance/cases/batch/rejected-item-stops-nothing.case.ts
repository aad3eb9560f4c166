import type { BatchItem } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'batch/rejected-item-stops-nothing',
  clause: 'batch-items',
  category: 'batch',
  description: 'a rejected item carries the error it would have had alone, changes nothing and stops nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const b = ctx.build;
    const policyRef = ctx.ids.policy();
    // Each rejected item breaks exactly one rule, so only one code is correct for it:
    // the version is new (id, version string and artifact all unused), only its digest is wrong.
    const misdigested = {
      ...b.version(ctx.ids.version(), fleet.type.id, fleet.capabilities, { version: ctx.ids.semver() }),
      manifest_digest: b.fakeDigest('wrong'),
    };
    const items = [
      { op: 'put_binding', record: b.binding(fleet.tenant, fleet.capability, ctx.ids.instance('absent')) },
      { op: 'put_connector_type', record: { ...fleet.type, owner: 'someone else' } },
      { op: 'put_connector_type', record: { id: 'not-a-type-id' } },
      { op: 'admit_version', record: misdigested },
      { op: 'put_admission_policy', record: b.policy(policyRef) },
    ] as unknown as BatchItem[];
    const reply = await ctx.as({ roles: ['registry:admin'] }).call('applyBatch', { body: { items } });
    const result = expectOk(reply);
    const shape = result.results.map((r) => [r.index, r.outcome, 'error' in r ? r.error.code : null]);
    expectEqual(
      shape,
      [
        [0, 'rejected', 'NOT_FOUND'],
        [1, 'rejected', 'CONFLICT'],
        [2, 'rejected', 'INVALID_REQUEST'],
        [3, 'rejected', 'ADMISSION_REJECTED'],
        [4, 'applied', null],
      ],
      'item results',
      reply.exchange,
    );
    expectOk(await ctx.reader.call('getAdmissionPolicy', { params: { policy_ref: policyRef } }), 'the item after the rejections');
    expectEqual(
      expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: fleet.type.id } })).owner,
      fleet.type.owner,
      'the type after its rejected change',
    );
    const absent = await ctx.reader.call('getBinding', {
      params: { tenant_id: fleet.tenant, capability_id: fleet.capability, instance_id: ctx.ids.instance('absent') },
    });
    expectError(absent, 'NOT_FOUND', undefined, 'the rejected binding');
    expectError(
      await ctx.reader.call('getVersion', { params: { version_id: misdigested.id } }),
      'NOT_FOUND',
      undefined,
      'the rejected version',
    );
  },
});
