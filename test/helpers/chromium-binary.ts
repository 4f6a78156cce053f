/**
 * Debian's Chromium and how the tests start it, without vitest (the browser tier's global
 * setup imports this, and runs outside a test file).
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** whether the browser tests can run on this machine */
export const hasChromium = existsSync(CHROMIUM);

/** How every browser test runs it: headless, as root in a container, no GPU. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu'];
