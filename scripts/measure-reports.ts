// `npm run measure:reports [-- --pages DIR] [-- --out DIR]`: how the report
// pages lay out in headless Chromium at 390 px (a phone) and 1366 px (a
// desktop), the figures of docs/figures.md ("Reports on a phone and a
// desktop"). Without --pages it renders the sample documents the rendering
// test uses (a certification with failures, a conformance run with failures,
// a property run, a load run, one under faults) with this tree's renderers;
// with --pages it measures every .html file in DIR as it is, so pages written
// by another revision are measured the same way. Prints one Markdown table:
// page overflow, smallest rendered text (SVG text as drawn), texts under
// 10 px, table cells reaching outside the viewport, and the page's height as
// first seen (folded sections closed). Needs Chromium (/usr/bin/chromium or
// CHROMIUM_PATH).
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderCertificationHtml } from '../reports/certification/render-html.ts';
import { renderHtml } from '../reports/conformance/render-html.ts';
import { renderLoadHtml } from '../reports/load/render-html.ts';
import { renderPropertiesHtml } from '../reports/properties/render.ts';
import { checkRendering, chromiumMissing, launchChromium, READABLE_PX } from '../reports/test/browser.ts';
import {
  sampleCertification,
  sampleConformance,
  sampleFaults,
  sampleLoad,
  sampleLoadUnderFaults,
  sampleProperties,
} from '../reports/test/sample-documents.ts';

const { values } = parseArgs({ options: { pages: { type: 'string' }, out: { type: 'string' } } });

/** The sample pages, written into `dir`; their files by page name. */
async function writeSamplePages(dir: string): Promise<Array<[string, string]>> {
  const conformance = sampleConformance();
  const load = sampleLoad();
  const pages: Record<string, string> = {
    certification: renderCertificationHtml(sampleCertification(conformance), load, sampleFaults(), conformance),
    conformance: renderHtml(conformance),
    properties: renderPropertiesHtml(sampleProperties()),
    load: renderLoadHtml(load),
    'load-under-faults': renderLoadHtml(sampleLoadUnderFaults()),
  };
  await mkdir(dir, { recursive: true });
  const files: Array<[string, string]> = [];
  for (const [name, html] of Object.entries(pages)) {
    const file = join(dir, `${name}.html`);
    await writeFile(file, html);
    files.push([name, file]);
  }
  return files;
}

async function pagesIn(dir: string): Promise<Array<[string, string]>> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.html')).sort();
  return names.map((f) => [f.replace(/\.html$/, ''), join(dir, f)]);
}

const missing = chromiumMissing();
if (missing) {
  console.error(`measure:reports: ${missing}`);
  process.exit(2);
}
const out = resolve(values.out ?? (await mkdtemp(join(tmpdir(), 'fleetproof-measure-reports-'))));
const files = values.pages !== undefined ? await pagesIn(resolve(values.pages)) : await writeSamplePages(out);
const browser = await launchChromium();
try {
  console.log(`pages: ${values.pages !== undefined ? resolve(values.pages) : out}; screenshots beside them in ${out}`);
  console.log(
    `| page | viewport | page overflow px | smallest text px | texts under ${READABLE_PX} px | table cells outside the viewport | height px (folded) |`,
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, file] of files)
    for (const c of await checkRendering(file, join(out, name), browser))
      console.log(
        `| ${name} | ${c.viewport} | ${c.horizontalOverflow} | ${c.smallestTextPx.toFixed(1)} | ${c.smallText.length} | ${c.cellsOutside.length} | ${Math.round(c.pageHeight)} |`,
      );
} finally {
  await browser.close();
}
