import { canonicalJson } from '../../../contract/canonical-json.js';
import type { Capability } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { definitionBytes, largestCapability, spreadCatalog } from '../../harness/sizes.ts';

/** Above this much catalog data the case would move more than a client sensibly can. */
const LARGEST_PROBE = 64 * 1024 * 1024;

export default defineCase({
  id: 'pagination/page-stays-within-max-page-bytes',
  clause: 'page-bytes',
  category: 'pagination',
  flags: ['slow', 'serial'],
  description: 'definitions whose sizes add up past max_page_bytes never share one page',
  async run(ctx) {
    const { max_page_bytes: max, max_page_size: size } = ctx.limits;
    // The fewest definitions that together exceed max_page_bytes, each as large as a version of its own can
    // carry: a registry that ignores the bound puts them all on one page of `limit` = their count.
    const capabilities: Capability[] = [];
    let bytes = 0;
    while (bytes <= max && capabilities.length < size && bytes <= LARGEST_PROBE) {
      const capability = largestCapability(ctx, `b${String(capabilities.length).padStart(4, '0')}`);
      capabilities.push(capability);
      bytes += definitionBytes(capability);
    }
    if (bytes <= max)
      throw new NotProvocable(
        `max_page_size ${size} definitions of at most ${definitionBytes(capabilities[0]!)} bytes add up to ${bytes}, not above max_page_bytes ${max}`,
      );
    if (bytes > LARGEST_PROBE) throw new NotProvocable(`exceeding max_page_bytes ${max} takes more than ${LARGEST_PROBE} bytes of catalog`);
    const { tenant } = await spreadCatalog(ctx, capabilities);
    const { pages } = await walkCatalog(ctx.catalogFor(tenant), { limit: capabilities.length });
    expectAtLeast(pages.length, 2, `pages for ${capabilities.length} definitions of ${bytes} bytes under max_page_bytes ${max}`);
    for (const [i, page] of pages.entries()) {
      const onPage = page.capabilities.reduce((n, d) => n + Buffer.byteLength(canonicalJson(d)), 0);
      expectAtMost(onPage, max, `canonical bytes on page ${i + 1}`);
      // Only a page with a cursor must hold one ([page-fill]); one after a trailing cursor is empty (decision 35).
      if (page.next_cursor !== null) expectAtLeast(page.capabilities.length, 1, `definitions on page ${i + 1}`);
    }
    expectEqual(pages.flatMap((p) => p.capabilities).length, capabilities.length, 'definitions over the whole walk');
  },
});
