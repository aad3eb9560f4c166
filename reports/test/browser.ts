// Opening a generated report in headless Chromium, offline, at phone and
// desktop widths: what it logs as errors, what it tries to fetch, and
// whether it overflows the viewport sideways, and whether each chart stays
// inside its box, all measured from the laid-out page. Chromium comes from the
// system (Debian's package, installed by .ci/run); playwright-core drives it.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function chromiumMissing(): string | false {
  return existsSync(CHROMIUM)
    ? false
    : `no Chromium at ${CHROMIUM} (install Debian's chromium package, as .ci/run does, or set CHROMIUM_PATH)`;
}

export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1400, height: 900 } } as const;

export interface RenderCheck {
  viewport: keyof typeof VIEWPORTS;
  consoleErrors: string[];
  /** Every URL the page asked for other than itself. */
  requests: string[];
  /** How far the document is wider than the viewport, in CSS pixels. */
  horizontalOverflow: number;
  title: string;
  /** Charts (svg.chart) whose box reaches past their container's or the viewport's right edge, with the overshoot in px. */
  chartsOutOfBox: string[];
  /** Charts laid out at zero size (a viewBox without a usable width collapses to nothing). */
  collapsedCharts: number;
  charts: number;
  /** The laid-out height of the page, in CSS pixels. */
  pageHeight: number;
}

// Runs in the page: every chart's right edge against its parent's content box and the viewport.
const MEASURE_CHARTS = `(() => {
  const out = [];
  let collapsed = 0;
  const charts = [...document.querySelectorAll('svg.chart')];
  charts.forEach((svg, i) => {
    const box = svg.getBoundingClientRect();
    const parent = svg.parentElement.getBoundingClientRect();
    const style = getComputedStyle(svg.parentElement);
    const inner = parent.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    if (box.width < 1 || box.height < 1) collapsed++;
    const over = Math.max(box.right - inner, box.right - document.documentElement.clientWidth);
    if (over > 0.5) out.push((svg.getAttribute('aria-label') || 'chart ' + i) + ': ' + over.toFixed(1) + 'px');
  });
  return { out, collapsed, count: charts.length, height: document.documentElement.scrollHeight };
})()`;

/** Checks the page at each viewport; with `screenshots`, saves a full-page PNG per viewport as `<screenshots>-<viewport>.png`. */
export async function checkRendering(file: string, screenshots?: string): Promise<RenderCheck[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const url = pathToFileURL(file).href;
    const checks: RenderCheck[] = [];
    for (const [name, viewport] of Object.entries(VIEWPORTS) as Array<[keyof typeof VIEWPORTS, { width: number; height: number }]>) {
      const context = await browser.newContext({ viewport, offline: true });
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      page.on('request', (r) => r.url() !== url && requests.push(r.url()));
      await page.goto(url, { waitUntil: 'load' });
      // Evaluated in the page, where document and window exist; this project type-checks without DOM types.
      const horizontalOverflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      const charts = await page.evaluate<{ out: string[]; collapsed: number; count: number; height: number }>(MEASURE_CHARTS);
      if (screenshots) await page.screenshot({ path: `${screenshots}-${name}.png`, fullPage: true });
      checks.push({
        viewport: name,
        consoleErrors,
        requests,
        horizontalOverflow,
        title: await page.title(),
        chartsOutOfBox: charts.out,
        collapsedCharts: charts.collapsed,
        charts: charts.count,
        pageHeight: charts.height,
      });
      await context.close();
    }
    return checks;
  } finally {
    await browser.close();
  }
}
