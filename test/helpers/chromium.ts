/**
 * Debian's Chromium, driven by playwright-core (no browser downloads here: .ci/run installs
 * the package). The browser tier skips its files when it is missing, and says so once.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
