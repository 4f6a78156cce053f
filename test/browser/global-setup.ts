import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from '../helpers/chromium-binary.js';

/**
 * One Chromium for the whole browser tier: each file connects to it (`launchChromium`) rather
 * than starting its own. A start costs ~1.4 s of CPU and 1-3 s of wall time here, paid once
 * instead of once per file; every file still gets its own pages and contexts, closed when it
 * disconnects.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (!hasChromium) return;
  const server: BrowserServer = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** the browser tier's shared Chromium (test/browser/global-setup.ts); '' outside it */
    chromiumEndpoint: string;
  }
}
