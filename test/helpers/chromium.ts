/**
 * Debian's Chromium, driven by playwright-core (no browser downloads here: .ci/run installs
 * the package). The browser tier skips its files when it is missing, and says so once.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium-binary.js';

export { CHROMIUM, CHROMIUM_ARGS, hasChromium } from './chromium-binary.js';

/**
 * A headless Chromium for one test file: a connection to the browser tier's shared one
 * (test/browser/global-setup.ts), or one of its own where none is shared. `close()` on it
 * closes what the file opened and leaves the shared browser to the others.
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
