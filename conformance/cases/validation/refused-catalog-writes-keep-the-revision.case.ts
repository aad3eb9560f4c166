import type { Reply } from '../../harness/client.ts';
import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'validation/refused-catalog-writes-keep-the-revision',
  clause: 'error-changes-nothing',
  category: 'validation',
  flags: ['serial'],
  description: 'a catalog write the registry refuses by one of its rules leaves the catalog revision where it was',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: {} });
    const b = fleet.binding;
    // Each is well formed and refused by a rule of the registry, not by its shape: the write was weighed, then refused.
    const refusals: Array<[string, string, () => Promise<Reply>]> = [
      [
        'type of another owner',
        'CONFLICT',
        () =>
          ctx.admin.call('putConnectorType', {
            params: { type_id: fleet.type.id },
            body: { ...fleet.type, owner: 'someone else' },
          }) as never,
      ],
      [
        'instance changed at its revision',
        'CONFLICT',
        () =>
          ctx.admin.call('putInstance', { params: { instance_id: fleet.instance.id }, body: { ...fleet.instance, status: 'disabled' } }),
      ],
      [
        'binding changed at its revision',
        'CONFLICT',
        () =>
          ctx.admin.call('putBinding', {
            params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
            body: { ...b, priority: 7 },
          }),
      ],
      [
        'policy changed at its revision',
        'CONFLICT',
        () =>
          ctx.admin.call('putAdmissionPolicy', {
            params: { policy_ref: fleet.policy!.policy_ref },
            body: { ...fleet.policy!, enabled: !fleet.policy!.enabled },
          }),
      ],
      [
        'version status outside the lifecycle',
        'INVALID_REQUEST',
        () => ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: unchecked({ status: 'candidate' }) }),
      ],
    ];
    for (const [what, code, write] of refusals) {
      const before = await ctx.fx.revision();
      expectError(await write(), code as never, undefined, what);
      expectIdentical(await ctx.fx.revision(), before, `${what}: the catalog revision afterwards`);
    }
  },
});
