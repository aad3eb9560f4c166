// Every HTML page (conformance, properties, load, certification) in headless Chromium at
// 390 px and 1400 px: nothing fetched, no console errors, no sideways
// scrolling of the page, every chart inside its box and drawn at a real
// size. Measured from the layout; REPORT_SCREENSHOTS=DIR also saves a
// screenshot of each page for a person to look at. The documents are
// samples shaped like a failing run: 186 failed cases, 185 of one cause,
// which must make a short page.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { renderCertificationHtml } from '../certification/render-html.ts';
import { renderHtml } from '../conformance/render-html.ts';
import { renderLoadHtml } from '../load/render-html.ts';
import { renderPropertiesHtml } from '../properties/render.ts';
import { checkRendering, chromiumMissing } from './browser.ts';
import { sampleCertification, sampleConformance, sampleLoad, sampleLoadUnderFaults, sampleProperties } from './sample-documents.ts';

const dir = await mkdtemp(join(tmpdir(), 'fleetproof-render-'));
after(() => rm(dir, { recursive: true, force: true }));

const conformance = sampleConformance();
const load = sampleLoad();
const pages: Record<string, { html: string; title: RegExp; charts: number }> = {
  conformance: { html: renderHtml(conformance), title: /fleetproof conformance/, charts: 1 },
  properties: { html: renderPropertiesHtml(sampleProperties()), title: /fleetproof properties/, charts: 0 },
  load: { html: renderLoadHtml(load), title: /fleetproof scale qualification/, charts: 6 },
  // The faults timeline comes on top of the load page's own charts.
  'load under faults': { html: renderLoadHtml(sampleLoadUnderFaults()), title: /fleetproof scale qualification/, charts: 7 },
  certification: { html: renderCertificationHtml(sampleCertification(conformance), load), title: /fleetproof certification/, charts: 7 },
};

describe('report pages in Chromium', () => {
  for (const [name, page] of Object.entries(pages)) {
    it(`${name}: fits a phone and a desktop, charts inside their boxes`, async (t) => {
      const missing = chromiumMissing();
      // CI installs Chromium (.ci/run), so there the check always runs.
      if (missing && process.env['CI']) assert.fail(missing);
      if (missing) return t.skip(missing);
      const file = join(dir, `${name}.html`);
      await writeFile(file, page.html);
      const shots = process.env['REPORT_SCREENSHOTS'];
      for (const check of await checkRendering(file, shots ? join(shots, name) : undefined)) {
        const at = `${name} at ${check.viewport}`;
        assert.deepEqual(check.consoleErrors, [], `${at}: console errors`);
        assert.deepEqual(check.requests, [], `${at}: the page fetched something`);
        assert.ok(check.horizontalOverflow <= 0, `${at}: the page is ${check.horizontalOverflow}px wider than the viewport`);
        assert.equal(check.charts, page.charts, `${at}: charts on the page`);
        assert.deepEqual(check.chartsOutOfBox, [], `${at}: charts reach past their box`);
        assert.equal(check.collapsedCharts, 0, `${at}: charts laid out at zero size`);
        assert.match(check.title, page.title);
        // 185 failures of one cause collapse to one open group: a few screens, not 136,535 px.
        if (name === 'conformance') assert.ok(check.pageHeight < 12_000, `${at}: page is ${check.pageHeight}px tall`);
      }
    });
  }
});
