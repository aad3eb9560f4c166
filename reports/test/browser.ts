// Opening a generated report in headless Chromium, offline, at phone and
// desktop widths: what it logs as errors, what it tries to fetch, and
// whether it overflows the viewport sideways. Chromium comes from the
// system (Debian's package, installed by .ci/run); playwright-core drives it.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function chromiumMissing(): string | false {
  return existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (install Debian's chromium package, as .ci/run does, or set CHROMIUM_PATH)`;
}

export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } } as const;

export interface RenderCheck {
  viewport: keyof typeof VIEWPORTS;
  consoleErrors: string[];
  /** Every URL the page asked for other than itself. */
  requests: string[];
  /** How far the document is wider than the viewport, in CSS pixels. */
  horizontalOverflow: number;
  title: string;
}

export async function checkRendering(file: string): Promise<RenderCheck[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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
      checks.push({ viewport: name, consoleErrors, requests, horizontalOverflow, title: await page.title() });
      await context.close();
    }
    return checks;
  } finally {
    await browser.close();
  }
}
