import { SCOPE_KINDS } from '../../../contract/errors.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/unused-counter-reads-zero',
  clause: 'admission-counter-read',
  category: 'admission',
  description: 'readers can read a counter of every kind by key; one never used reads 0',
  async run(ctx) {
    const key = ctx.ids.tenant('never-used');
    for (const kind of SCOPE_KINDS.filter((k) => k !== 'global')) {
      const counter = expectOk(await ctx.reader.call('getAdmissionCounter', { params: { kind, key } }), `${kind} counter`);
      expectEqual(counter, { kind, key, active: 0 }, `an unused ${kind} counter`);
    }
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 5 } });
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(
      expectOk(await ctx.reader.call('getAdmissionCounter', { params: { kind: 'tenant', key: fleet.tenant } })).active,
      1,
      'a tenant counter with one reservation',
    );
  },
});
