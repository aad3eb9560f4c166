// Opening a generated report in headless Chromium, offline, at phone and
// desktop widths, and measuring what a reader sees from the laid-out page:
// what it logs as errors, what it tries to fetch, how far it overflows the
// viewport sideways, the smallest text it renders (SVG text at the size it is
// drawn, after the chart's scaling), the table cells that lie outside the
// viewport, and whether each chart stays inside its box. Folded sections are
// opened first, so what a reader unfolds is measured too. Chromium comes from
// the system (Debian's package, installed by .ci/run); playwright-core drives it.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function chromiumMissing(): string | false {
  return existsSync(CHROMIUM)
    ? false
    : `no Chromium at ${CHROMIUM} (install Debian's chromium package, as .ci/run does, or set CHROMIUM_PATH)`;
}

/** A phone, and the desktop the reports were first read on. */
export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } } as const;
export type ViewportName = keyof typeof VIEWPORTS;

export interface RenderCheck {
  viewport: ViewportName;
  consoleErrors: string[];
  /** Every URL the page asked for other than itself. */
  requests: string[];
  /** How far the document is wider than the viewport, in CSS pixels. */
  horizontalOverflow: number;
  title: string;
  /** The smallest rendered text on the page, in CSS pixels (SVG text as drawn). */
  smallestTextPx: number;
  /** Text rendered under the readable size, each with its size and its first characters. */
  smallText: string[];
  /** Table cells (td, th) whose box reaches outside the viewport, each with how far. */
  cellsOutside: string[];
  /** Charts (.chart) whose box reaches past their container's or the viewport's right edge, with the overshoot in px. */
  chartsOutOfBox: string[];
  /** Charts laid out at zero size. */
  collapsedCharts: number;
  charts: number;
  /** The laid-out height of the page as a reader first sees it (folded sections closed), in CSS pixels. */
  pageHeight: number;
}

/** Text smaller than this is not readable on a phone held at arm's length. */
export const READABLE_PX = 10;

// Runs in the page (this project type-checks without DOM types, so it is a string).
const MEASURE = `(() => {
  const readable = ${READABLE_PX};
  const vw = document.documentElement.clientWidth;
  const visible = (r) => r.width > 0.5 && r.height > 0.5;
  const snippet = (el) => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
  let smallest = Infinity;
  const small = [];
  const note = (px, el) => {
    if (px < smallest) smallest = px;
    if (px < readable - 0.05) small.push(px.toFixed(1) + 'px ' + el.tagName.toLowerCase() + ' "' + snippet(el) + '"');
  };
  for (const el of document.querySelectorAll('body *')) {
    if (el instanceof SVGElement && !(el instanceof SVGTextElement)) continue;
    if (el.closest('title, style, script')) continue;
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!ownText || !visible(el.getBoundingClientRect())) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGTextElement) {
      const m = el.getScreenCTM();
      note(size * (m ? Math.hypot(m.a, m.b) : 1), el);
    } else note(size, el);
  }
  const cells = [];
  for (const cell of document.querySelectorAll('td, th')) {
    const r = cell.getBoundingClientRect();
    if (!visible(r)) continue;
    const over = Math.max(-r.left, r.right - vw);
    if (over > 0.5) cells.push(over.toFixed(0) + 'px ' + cell.tagName.toLowerCase() + ' "' + snippet(cell) + '"');
  }
  const charts = [...document.querySelectorAll('.chart')];
  const out = [];
  let collapsed = 0;
  charts.forEach((chart, i) => {
    const box = chart.getBoundingClientRect();
    const parent = chart.parentElement.getBoundingClientRect();
    const style = getComputedStyle(chart.parentElement);
    const inner = parent.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    if (box.width < 1 || box.height < 1) collapsed++;
    const over = Math.max(box.right - inner, box.right - vw);
    if (over > 0.5) out.push((chart.getAttribute('aria-label') || 'chart ' + i) + ': ' + over.toFixed(1) + 'px');
  });
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    smallest: smallest === Infinity ? 0 : smallest,
    small,
    cells,
    out,
    collapsed,
    charts: charts.length,
  };
})()`;

// Opens every folded section, so that what a reader may unfold is laid out and measured too.
const UNFOLD = `document.querySelectorAll('details').forEach((d) => { d.open = true; })`;

interface Measured {
  overflow: number;
  smallest: number;
  small: string[];
  cells: string[];
  out: string[];
  collapsed: number;
  charts: number;
}

/** Headless Chromium for the checks; the caller closes it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/**
 * Checks the page at each viewport, in the browser given (one of its own
 * otherwise, closed after). With `screenshots`, saves a full-page PNG per
 * viewport as `<screenshots>-<viewport>.png`, as a reader first sees it (folded).
 */
export async function checkRendering(file: string, screenshots?: string, shared?: Browser): Promise<RenderCheck[]> {
  const browser = shared ?? (await launchChromium());
  try {
    const url = pathToFileURL(file).href;
    const checks: RenderCheck[] = [];
    for (const [name, viewport] of Object.entries(VIEWPORTS) as Array<[ViewportName, { width: number; height: number }]>) {
      const context = await browser.newContext({ viewport, offline: true });
      try {
        const page = await context.newPage();
        const consoleErrors: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
        page.on('pageerror', (e) => consoleErrors.push(String(e)));
        page.on('request', (r) => r.url() !== url && requests.push(r.url()));
        await page.goto(url, { waitUntil: 'load' });
        if (screenshots) await page.screenshot({ path: `${screenshots}-${name}.png`, fullPage: true });
        const foldedHeight = await page.evaluate<number>('document.documentElement.scrollHeight');
        await page.evaluate(UNFOLD);
        const m = await page.evaluate<Measured>(MEASURE);
        checks.push({
          viewport: name,
          consoleErrors,
          requests,
          horizontalOverflow: m.overflow,
          title: await page.title(),
          smallestTextPx: m.smallest,
          smallText: m.small,
          cellsOutside: m.cells,
          chartsOutOfBox: m.out,
          collapsedCharts: m.collapsed,
          charts: m.charts,
          pageHeight: foldedHeight,
        });
      } finally {
        await context.close();
      }
    }
    return checks;
  } finally {
    if (!shared) await browser.close();
  }
}
