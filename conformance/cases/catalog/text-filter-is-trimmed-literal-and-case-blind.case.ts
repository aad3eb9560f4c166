import { defineCase } from '../../harness/define-case.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/text-filter-is-trimmed-literal-and-case-blind',
  clause: 'catalog-filters',
  category: 'catalog',
  // Walks the catalog, which other cases' writes would keep making stale.
  flags: ['serial'],
  description: 'the text filter is trimmed, literal (no % or _ wildcards) and ignores ASCII case',
  async run(ctx) {
    const odd = ctx.fx.capability({ name: 'Percent 100% Under_Score', description: 'Mixed CASE Words' }, 'odd');
    const plain = ctx.fx.capability({ name: 'Plain name', description: 'nothing special' }, 'plain');
    const { tenant } = await spreadCatalog(ctx, [odd, plain]);
    // Whole walks: the target's pages may be smaller than the matches.
    const ids = async (text: string, capability_id?: string) =>
      (await walkCatalog(ctx.catalogFor(tenant), { text, ...(capability_id ? { capability_id } : {}) })).pages.flatMap((p) =>
        p.capabilities.map((d) => d.capability.id),
      );
    expectEqual(await ids('  mixed case words  '), [odd.id], 'trimmed, case-blind description match');
    // Each wildcard probe matches odd's name under LIKE ('%' any run, '_' any one character)
    // and nothing as a literal, so only a literal filter returns nothing.
    expectEqual(await ids('100%'), [odd.id], 'a literal %');
    expectEqual(await ids('percent%score'), [], '% is not a wildcard ("Percent 100% Under_Score" under LIKE)');
    expectEqual(await ids('under_score'), [odd.id], 'a literal _');
    expectEqual(await ids('percent_100'), [], '_ is not a wildcard ("Percent 100" under LIKE)');
    expectEqual(await ids(`${ctx.ids.prefix}.PLAIN`.toUpperCase()), [plain.id], 'an upper-cased id');
    expectEqual(await ids('   '), [odd.id, plain.id].sort(), 'blank text filters nothing');
    expectEqual(await ids('plain', odd.id), [], 'text AND capability_id');
  },
});
