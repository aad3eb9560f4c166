import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/exact-id-and-profile-filters',
  clause: 'catalog-filters',
  category: 'catalog',
  description: 'capability_id matches exactly, profile keeps declaring versions, and filters combine with AND',
  async run(ctx) {
    const [alpha, alphabet] = [ctx.fx.capability({}, 'alpha'), ctx.fx.capability({}, 'alphabet')];
    const first = await ctx.fx.fleet({ capabilities: [alpha, alphabet], profiles: ['p.one'] });
    const other = ctx.fx.capability({}, 'other');
    await ctx.fx.fleet({ tenant: first.tenant, capabilities: [other], profiles: ['p.two'] });
    const ids = async (query: Record<string, string>) => expectOk(await ctx.catalogFor(first.tenant).call('queryCatalog', { query: { text: ctx.ids.prefix, ...query } })).capabilities.map((d) => d.capability.id);
    expectEqual(await ids({ capability_id: alpha.id }), [alpha.id], 'exact id, not a prefix match');
    expectEqual(await ids({ capability_id: alpha.id.slice(0, -2) }), [], 'a prefix of an id');
    expectEqual(await ids({ profile: 'p.two' }), [other.id], 'profile p.two');
    expectEqual(await ids({ profile: 'p.one' }), [alpha.id, alphabet.id], 'profile p.one');
    expectEqual(await ids({ profile: 'p.one', capability_id: other.id }), [], 'profile AND id');
  },
});
