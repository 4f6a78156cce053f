/**
 * A browser file whose tests stop and start `svc-cli` servers mid-test (a simulator going
 * down and coming back): one Chromium for the file, and at its end the page opened last
 * closed and every server still listed stopped, whether the test got that far or not.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from './chromium.js';
import type { CliServer } from './cli-server.js';

export interface RestartStage {
  /** the servers to stop at the end: push what a test starts, splice what it stopped */
  running: CliServer[];
  /** a page on the file's browser, closed at the end if the test did not */
  openPage: (options: BrowserContextOptions) => Promise<Page>;
}

/** Call in a describe block: registers its beforeAll and afterAll. */
export function restartStage(): RestartStage {
  let browser: Browser | undefined;
  let page: Page | undefined;
  const running: CliServer[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await page?.close();
    for (const cli of running) expect([0, 130]).toContain(await cli.stop());
    await browser?.close();
  });
  return {
    running,
    openPage: async (options) => {
      page = await browser!.newPage(options);
      return page;
    },
  };
}
