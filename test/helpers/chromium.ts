/**
 * Debian's Chromium, driven by playwright-core (no browser downloads here: .ci/run installs
 * the package). The browser tier skips its files when it is missing, and says so once.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** whether the browser tests can run on this machine */
export const hasChromium = existsSync(CHROMIUM);

/** A headless Chromium as every browser test starts it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
}

/** The widths and colour schemes every report page is looked at in (docs/trace.md). */
export const REPORT_VIEWS = [
  [1280, 'light'],
  [800, 'dark'],
  [390, 'light'],
] as const;

/**
 * Opens a self-contained page from disk at a width and colour scheme, and returns it with
 * every URL it asked for: a report must ask for nothing but itself (no network).
 */
export async function openFromDisk(
  browser: Browser,
  url: string,
  width: number,
  scheme: 'light' | 'dark',
): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  return { page, requests };
}
