import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/conflicting-capability-definition-is-conflict',
  clause: 'records-capability-contract',
  category: 'records',
  description: 'another connector type declaring an admitted capability id with other content is 409',
  async run(ctx) {
    const first = await ctx.fx.fleet();
    const original = first.capabilities[0]!;
    const other = await ctx.fx.type();
    const changes = [
      { input_schema: { type: 'object', required: ['query'] } },
      { description: 'different words' },
      { kind: 'agent' as const },
    ];
    for (const change of changes) {
      const v = ctx.build.version(ctx.ids.version(), other.id, [{ ...original, ...change }], { version: ctx.ids.semver() });
      expectError(
        await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }),
        'CONFLICT',
        undefined,
        `capability with ${Object.keys(change)[0]} changed`,
      );
    }
    const page = expectOk(await ctx.catalogFor(first.tenant).call('queryCatalog', { query: { capability_id: original.id } }));
    expectIdentical(page.capabilities[0]?.capability, original, 'the definition the catalog still shows');
  },
});
