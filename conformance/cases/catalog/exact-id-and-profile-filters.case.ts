import { defineCase } from '../../harness/define-case.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/exact-id-and-profile-filters',
  clause: 'catalog-filters',
  category: 'catalog',
  // Walks the catalog, which other cases' writes would keep making stale.
  flags: ['serial'],
  description: 'capability_id matches exactly, profile keeps declaring versions, and filters combine with AND',
  async run(ctx) {
    const [alpha, alphabet] = [ctx.fx.capability({}, 'alpha'), ctx.fx.capability({}, 'alphabet')];
    const { tenant } = await spreadCatalog(ctx, [alpha, alphabet], { profiles: ['p.one'] });
    const other = ctx.fx.capability({}, 'other');
    await ctx.fx.fleet({ tenant, capabilities: [other], profiles: ['p.two'] });
    // Whole walks: the target's pages may be smaller than the matches.
    const ids = async (query: Record<string, string>) =>
      (await walkCatalog(ctx.catalogFor(tenant), { text: ctx.ids.prefix, ...query })).pages.flatMap((p) =>
        p.capabilities.map((d) => d.capability.id),
      );
    expectEqual(await ids({ capability_id: alpha.id }), [alpha.id], 'exact id, not a prefix match');
    expectEqual(await ids({ capability_id: alpha.id.slice(0, -2) }), [], 'a prefix of an id');
    expectEqual(await ids({ profile: 'p.two' }), [other.id], 'profile p.two');
    expectEqual(await ids({ profile: 'p.one' }), [alpha.id, alphabet.id], 'profile p.one');
    expectEqual(await ids({ profile: 'p.one', capability_id: other.id }), [], 'profile AND id');
  },
});
