// Every kind of report page in headless Chromium at 390 px and at a desktop
// width, measured from the laid-out page with every folded section open:
// nothing fetched, no console errors, no sideways scrolling of the page, no
// text rendered under 10 px (SVG text at the size it is drawn), on the phone
// every table cell inside the viewport, every chart inside its box. The pages
// are a certification that failed, a conformance run with failures and
// skips proven from the declared limits, one that qualified with such skips,
// a certification that could not run, load runs (a failed profile, one under
// faults, a breakpoint ramp), a property run and a comparison of two runs. A screenshot of each, as a
// reader first sees it, is saved for review under the OS temp dir
// (REPORT_SCREENSHOTS=DIR saves them there instead).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { renderCertificationHtml } from '../certification/render-html.ts';
import { renderHtml } from '../conformance/render-html.ts';
import { renderLoadHtml } from '../load/render-html.ts';
import { renderPropertiesHtml } from '../properties/render.ts';
import { compareRuns } from '../compare/compare-runs.ts';
import { renderComparisonHtml } from '../compare/render-compare.ts';
import { conformanceIdentity } from '../conformance/render-html.ts';
import { checkRendering, chromiumMissing, launchChromium, READABLE_PX } from './browser.ts';
import {
  sampleBreakpoint,
  sampleCertification,
  sampleConformance,
  sampleCouldNotRun,
  sampleFaults,
  sampleLoad,
  sampleLoadUnderFaults,
  sampleProperties,
} from './sample-documents.ts';

const dir = await mkdtemp(join(tmpdir(), 'fleetproof-render-'));
// One browser for every page, closed when the file ends however it ends.
let browser: Browser | undefined;
before(async () => {
  if (!chromiumMissing()) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});
const shots = process.env['REPORT_SCREENSHOTS'] ?? join(tmpdir(), 'fleetproof-report-screenshots');
await mkdir(shots, { recursive: true });

const conformance = sampleConformance();
const load = sampleLoad();
const qualifiedWithSkips = (() => {
  const cases = conformance.cases.filter((c) => c.status === 'pass' || c.status === 'skip');
  const skip = cases.filter((c) => c.status === 'skip').length;
  return {
    ...conformance,
    verdict: 'qualified' as const,
    cases,
    summary: { total: cases.length, pass: cases.length - skip, fail: 0, skip, error: 0, blocking: 0 },
  };
})();

// Two certifications of one registry, the second worse, as the comparison sees them.
const comparison = compareRuns(
  {
    dir: 'reports/runs/fp20261130t120000a1b2c3d4',
    kind: 'certification',
    verdict: 'qualified',
    verdicts: { conformance: 'qualified', properties: 'qualified', load: 'qualified' },
    identity: { ...conformanceIdentity(qualifiedWithSkips), run: 'fp20261130t120000a1b2c3d4' },
    conformance: qualifiedWithSkips,
    properties: sampleProperties(),
    load: { ...load, phases: load.phases.map((p) => ({ ...p, latency_ms: { ...p.latency_ms!, 'p(99)': 20 } })) },
  },
  {
    dir: 'reports/runs/fp20261201t120000a1b2c3d4',
    kind: 'certification',
    verdict: 'non-conformant',
    verdicts: { conformance: 'non-conformant', properties: 'qualified', load: 'qualified' },
    identity: conformanceIdentity(conformance),
    conformance,
    properties: sampleProperties(),
    load,
  },
);

// Charts: the coverage chart; thresholds, latency per phase, latency over time, requests and errors, routes; the faults timeline; the breakpoint curve.
const LOAD_CHARTS = 5;
const pages: Record<string, { html: string; title: RegExp; charts: number }> = {
  'certification (failed)': {
    html: renderCertificationHtml(sampleCertification(conformance), load, sampleFaults(), conformance),
    title: /fleetproof certification/,
    charts: 1 + 1 + LOAD_CHARTS,
  },
  'certification (could not run)': {
    html: renderCertificationHtml(sampleCouldNotRun(), null),
    title: /fleetproof certification/,
    charts: 1,
  },
  'conformance (failures and skips)': { html: renderHtml(conformance), title: /fleetproof conformance/, charts: 1 },
  'conformance (qualified, skips proven)': { html: renderHtml(qualifiedWithSkips), title: /fleetproof conformance/, charts: 1 },
  load: { html: renderLoadHtml(load), title: /fleetproof scale qualification/, charts: LOAD_CHARTS },
  'load under faults': { html: renderLoadHtml(sampleLoadUnderFaults()), title: /fleetproof scale qualification/, charts: LOAD_CHARTS + 1 },
  'load (breakpoint)': { html: renderLoadHtml(sampleBreakpoint()), title: /fleetproof scale qualification/, charts: LOAD_CHARTS + 1 },
  properties: { html: renderPropertiesHtml(sampleProperties()), title: /fleetproof properties/, charts: 0 },
  comparison: { html: renderComparisonHtml(comparison), title: /fleetproof comparison/, charts: 0 },
};

// Each page is a test of its own, with its own time limit: one limit shared by all of them would count every page's screenshots.
for (const [name, page] of Object.entries(pages)) {
  it(`${name}: fits a phone and a desktop, readable text, charts inside their boxes`, async (t) => {
    const missing = chromiumMissing();
    // CI installs Chromium (.ci/run), so there the check always runs.
    if (missing && process.env['CI']) assert.fail(missing);
    if (missing) return t.skip(missing);
    const file = join(dir, `${name.replace(/\W+/g, '-')}.html`);
    await writeFile(file, page.html);
    const checks = await checkRendering(file, join(shots, name.replace(/\W+/g, '-').replace(/-$/, '')), browser);
    for (const check of checks) {
      const at = `${name} at ${check.viewport}`;
      t.diagnostic(
        `${at}: overflow ${check.horizontalOverflow} px, smallest text ${check.smallestTextPx.toFixed(1)} px; screenshot in ${shots}`,
      );
      assert.deepEqual(check.consoleErrors, [], `${at}: console errors`);
      assert.deepEqual(check.requests, [], `${at}: the page fetched something`);
      assert.ok(check.horizontalOverflow <= 0, `${at}: the page is ${check.horizontalOverflow}px wider than the viewport`);
      assert.deepEqual(check.smallText, [], `${at}: text under ${READABLE_PX} px`);
      assert.ok(check.smallestTextPx >= READABLE_PX, `${at}: smallest text ${check.smallestTextPx} px`);
      if (check.viewport === 'phone') assert.deepEqual(check.cellsOutside, [], `${at}: table cells outside the viewport`);
      assert.equal(check.charts, page.charts, `${at}: charts on the page`);
      assert.deepEqual(check.chartsOutOfBox, [], `${at}: charts reach past their box`);
      assert.equal(check.collapsedCharts, 0, `${at}: charts laid out at zero size`);
      assert.match(check.title, page.title);
      // Failures of one cause collapse to one open group: a few screens as first seen, not the whole run unfolded.
      if (name.startsWith('conformance (failures')) assert.ok(check.pageHeight < 12_000, `${at}: page is ${check.pageHeight}px tall`);
    }
  });
}

it('the measure can fail: text drawn small, a wide table, a page wider than the phone', async (t) => {
  const missing = chromiumMissing();
  if (missing && process.env['CI']) assert.fail(missing);
  if (missing) return t.skip(missing);
  const file = join(dir, 'broken.html');
  const wide = `<table><tr>${Array.from({ length: 12 }, (_, i) => `<td>column-${i}-wide-content</td>`).join('')}</tr></table>`;
  const svg = '<svg viewBox="0 0 720 100" style="width:100%"><text x="0" y="20" font-size="11">drawn at 720, shown at 370</text></svg>';
  await writeFile(
    file,
    `<!doctype html><meta name="viewport" content="width=device-width"><body>${svg}${wide}<p style="font-size:8px">tiny</p></body>`,
  );
  const [phone] = await checkRendering(file, undefined, browser);
  assert.ok(phone!.horizontalOverflow > 0, 'overflow seen');
  assert.ok(
    phone!.smallText.some((x) => x.includes('drawn at 720')),
    `SVG text measured as drawn: ${phone!.smallText.join('; ')}`,
  );
  assert.ok(
    phone!.smallText.some((x) => x.includes('tiny')),
    'small HTML text seen',
  );
  assert.ok(phone!.cellsOutside.length > 0, 'cells outside the viewport seen');
});
