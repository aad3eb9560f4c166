import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual } from '../../harness/expect.ts';
import { HarnessError } from '../../harness/failure.ts';
import { walkCatalog } from '../../harness/observe.ts';

/** Above this much catalog data the case would move more than a client sensibly can. */
const LARGEST_PROBE = 64 * 1024 * 1024;

export default defineCase({
  id: 'pagination/page-stays-within-max-page-bytes',
  clause: 'page-bytes',
  category: 'pagination',
  flags: ['slow', 'serial'],
  description: 'the canonical sizes of the definitions on a page add up to at most max_page_bytes',
  async run(ctx) {
    const { max_page_bytes: max, max_capability_bytes: each, max_manifest_bytes: manifest, max_page_size: size } = ctx.limits;
    const share = Math.min(each - 2048, Math.floor(manifest / 4), 240_000);
    const count = Math.floor(max / share) + 3;
    if (share <= 1024 || count * share > LARGEST_PROBE || count > size) throw new HarnessError(`max_page_bytes ${max} cannot be exceeded with definitions of at most ${share} bytes`);
    const capabilities = Array.from({ length: count }, (_, i) => ctx.build.capability(ctx.ids.capability(`b${String(i).padStart(3, '0')}`), { input_schema: { description: 'x'.repeat(share - 400) } }));
    const perVersion = Math.max(1, Math.floor((manifest - 4096) / share));
    const first = await ctx.fx.fleet({ capabilities: capabilities.slice(0, perVersion) });
    for (let i = perVersion; i < count; i += perVersion) await ctx.fx.fleet({ tenant: first.tenant, capabilities: capabilities.slice(i, i + perVersion) });
    const { pages } = await walkCatalog(ctx.catalogFor(first.tenant), { limit: size });
    expectAtLeast(pages.length, 2, `pages for ${count} definitions of ~${share} bytes under max_page_bytes ${max}`);
    for (const [i, page] of pages.entries()) {
      const bytes = page.capabilities.reduce((n, d) => n + Buffer.byteLength(canonicalJson(d)), 0);
      expectAtMost(bytes, max, `canonical bytes on page ${i + 1}`);
      expectAtLeast(page.capabilities.length, 1, `definitions on page ${i + 1}`);
    }
    expectEqual(pages.flatMap((p) => p.capabilities).length, count, 'definitions over the whole walk');
  },
});
