import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { definitionBytes } from '../../harness/sizes.ts';

/** Above this much catalog data the case would move more than a client sensibly can. */
const LARGEST_PROBE = 64 * 1024 * 1024;

export default defineCase({
  id: 'pagination/page-stays-within-max-page-bytes',
  clause: 'page-bytes',
  category: 'pagination',
  flags: ['slow', 'serial'],
  description: 'the canonical sizes of the definitions on a page add up to at most max_page_bytes',
  async run(ctx) {
    const {
      max_page_bytes: max,
      max_capability_bytes: each,
      max_manifest_bytes: manifest,
      max_page_size: size,
      max_body_bytes: body,
    } = ctx.limits;
    // Each definition as large as every limit on one admission allows: the capability bound, a manifest of
    // one capability, a body of one version. Its size is measured, not guessed: ids and digests are the rest.
    const share = Math.min(each, manifest - 512, body - 8192, 240_000);
    const capabilityOf = (i: number, padding: number) =>
      ctx.build.capability(ctx.ids.capability(`b${String(i).padStart(3, '0')}`), { input_schema: { description: 'x'.repeat(padding) } });
    const rest = definitionBytes(capabilityOf(0, 0));
    const count = Math.floor(max / share) + 3;
    // A full page of the largest definitions must exceed max_page_bytes, or no page can reach the bound.
    if (share - rest < 512 || count > size)
      throw new NotProvocable(`max_page_size ${size} definitions of at most ${share} bytes never exceed max_page_bytes ${max}`);
    if (count * share > LARGEST_PROBE)
      throw new NotProvocable(`exceeding max_page_bytes ${max} takes more than ${LARGEST_PROBE} bytes of catalog`);
    const capabilities = Array.from({ length: count }, (_, i) => capabilityOf(i, share - rest));
    const perVersion = Math.max(
      1,
      Math.min(ctx.limits.max_capabilities_per_version, Math.floor((manifest - 1024) / share), Math.floor((body - 8192) / share)),
    );
    const first = await ctx.fx.fleet({ capabilities: capabilities.slice(0, perVersion) });
    for (let i = perVersion; i < count; i += perVersion)
      await ctx.fx.fleet({ tenant: first.tenant, capabilities: capabilities.slice(i, i + perVersion) });
    const { pages } = await walkCatalog(ctx.catalogFor(first.tenant), { limit: size });
    expectAtLeast(pages.length, 2, `pages for ${count} definitions of ~${share} bytes under max_page_bytes ${max}`);
    for (const [i, page] of pages.entries()) {
      const bytes = page.capabilities.reduce((n, d) => n + Buffer.byteLength(canonicalJson(d)), 0);
      expectAtMost(bytes, max, `canonical bytes on page ${i + 1}`);
      // Only a page with a cursor must hold one ([page-fill]); one after a trailing cursor is empty (decision 35).
      if (page.next_cursor !== null) expectAtLeast(page.capabilities.length, 1, `definitions on page ${i + 1}`);
    }
    expectEqual(pages.flatMap((p) => p.capabilities).length, count, 'definitions over the whole walk');
  },
});
