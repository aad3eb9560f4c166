import type { Reply } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectEqual, expectOk, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'revisions/catalog-writes-advance-the-revision',
  clause: 'revision-advances',
  category: 'revisions',
  flags: ['serial'],
  description: 'every applied write of a type, version, status, instance, binding or policy advances the revision',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: {} });
    const b = fleet.binding;
    const second = ctx.build.connectorType(ctx.ids.type('second'));
    const next = ctx.build.version(ctx.ids.version(), fleet.type.id, fleet.capabilities, { version: ctx.ids.semver() });
    const writes: Array<[string, () => Promise<Reply>]> = [
      ['connector type', () => ctx.admin.call('putConnectorType', { params: { type_id: second.id }, body: second }) as never],
      ['type enabled', () => ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: false } })],
      ['type re-enabled', () => ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: true } })],
      ['version', () => ctx.admin.call('admitVersion', { params: { version_id: next.id }, body: next })],
      ['version status', () => ctx.admin.call('setVersionStatus', { params: { version_id: next.id }, body: { status: 'admitted' } })],
      [
        'instance',
        () =>
          ctx.admin.call('putInstance', { params: { instance_id: fleet.instance.id }, body: { ...fleet.instance, config_revision: 2 } }),
      ],
      [
        'binding',
        () =>
          ctx.admin.call('putBinding', {
            params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
            body: { ...b, priority: 4, policy_revision: b.policy_revision + 1 },
          }),
      ],
      [
        'policy',
        () =>
          ctx.admin.call('putAdmissionPolicy', {
            params: { policy_ref: fleet.policy!.policy_ref },
            body: { ...fleet.policy!, revision: 2, enabled: false },
          }),
      ],
    ];
    for (const [what, write] of writes) {
      const before = await ctx.fx.revision();
      const reply = await write();
      const result = expectOk(reply as Reply<'putConnectorType'>, what);
      expectEqual(result.outcome, 'applied', `${what}: outcome`, reply.exchange);
      expectTrue(
        result.catalog_revision > before,
        `${what}: result revision ${result.catalog_revision} is not above ${before}, read before the write`,
        reply.exchange,
      );
      expectAtLeast(await ctx.fx.revision(), result.catalog_revision, `${what}: revision read after the write`);
    }
  },
});
