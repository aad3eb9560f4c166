import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/admitted-version-is-supply-chain-qualified',
  clause: 'records-version-evidence',
  category: 'records',
  description: 'a version admitted with complete evidence is supply_chain_qualified, in the result and on read',
  async run(ctx) {
    const type = await ctx.fx.type({ owner: `owner of ${ctx.ids.prefix}` });
    const version = ctx.build.version(ctx.ids.version(), type.id, [ctx.fx.capability()], { owner: type.owner, status: 'admitted' });
    const written = expectOk(await ctx.admin.call('admitVersion', { params: { version_id: version.id }, body: version }));
    expectEqual([written.outcome, written.record.supply_chain_qualified], ['applied', true], 'admission result');
    const read = expectOk(await ctx.reader.call('getVersion', { params: { version_id: version.id } }));
    expectEqual(read.supply_chain_qualified, true, 'supply_chain_qualified on read');
  },
});
