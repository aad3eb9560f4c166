import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';
import { spreadCatalog } from '../../harness/sizes.ts';

export default defineCase({
  id: 'records/definitions-carry-contract-and-schema-digests',
  clause: 'digest-capability',
  category: 'records',
  description: 'definitions carry the digest of the capability and of {input, output or null}',
  async run(ctx) {
    const withOutput = ctx.fx.capability();
    const withoutOutput = ctx.fx.capability({ input_schema: { type: 'object', title: 'no output' } });
    delete (withoutOutput as { output_schema?: unknown }).output_schema;
    const { tenant } = await spreadCatalog(ctx, [withOutput, withoutOutput]);
    for (const cap of [withOutput, withoutOutput]) {
      // One match per query, so one page holds it whatever the target's page size.
      const page = expectOk(await ctx.catalogFor(tenant).call('queryCatalog', { query: { capability_id: cap.id } }));
      const def = page.capabilities.find((d) => d.capability.id === cap.id);
      expectEqual(def?.capability, cap, `the definition of ${cap.id}`);
      expectEqual(def?.contract_digest, ctx.build.digestOf(cap), `contract_digest of ${cap.id}`);
      expectEqual(
        def?.schema_digest,
        ctx.build.digestOf({ input: cap.input_schema, output: cap.output_schema ?? null }),
        `schema_digest of ${cap.id}`,
      );
    }
    const single = expectOk(await ctx.catalogFor(tenant).call('getCatalogCapability', { params: { capability_id: withoutOutput.id } }));
    expectEqual(
      single.definition.schema_digest,
      ctx.build.digestOf({ input: withoutOutput.input_schema, output: null }),
      'schema_digest of a single read',
    );
  },
});
