import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/identical-capability-is-shared',
  clause: 'records-capability-contract',
  category: 'records',
  description: 'another connector type may declare an identical capability; both share one definition',
  async run(ctx) {
    const first = await ctx.fx.fleet();
    const second = await ctx.fx.fleet({ tenant: first.tenant, capabilities: first.capabilities });
    const page = expectOk(await ctx.catalogFor(first.tenant).call('queryCatalog', { query: { capability_id: first.capability } }));
    expectEqual(page.total, 1, 'one capability id, one definition, though two instances are bound');
    expectEqual(page.capabilities[0]!.capability, first.capabilities[0], 'the shared definition');
    expectEqual(second.version.manifest.capabilities, first.version.manifest.capabilities, 'both versions declare the same capability');
  },
});
