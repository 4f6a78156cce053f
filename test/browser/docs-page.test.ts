/**
 * The contract page the simulator serves (`GET /_sim/docs`, linked from the console's journal)
 * in headless Chromium at 1280, 800 and 390 px: the page never scrolls sideways (a wide table
 * scrolls in its own box), a linked kind is not hidden under the sticky header, and the filter
 * counts in plain words. Skipped when /usr/bin/chromium is missing.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';

describe.skipIf(!hasChromium)('the contract page of /_sim/docs', () => {
  let browser: Browser;
  let cli: CliServer;

  beforeAll(async () => {
    cli = await startCliServer(['platform', '--port', '0', '--web', '--no-console', '--json']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    expect([0, 130]).toContain(await cli?.stop());
  });

  for (const width of [1280, 800, 390]) {
    it(`fits ${width} px and shows a linked kind below its header`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await page.goto(`${cli.listening.url}/_sim/docs#kind-widget.open.args`);
        await page.locator('#count', { hasText: '1 kind' }).waitFor();
        const seen = await page.evaluate(() => {
          const header = document.querySelector('header')!.getBoundingClientRect();
          const target = document.getElementById('kind-widget.open.args')!.getBoundingClientRect();
          const link = document.querySelector('header a')!.getBoundingClientRect();
          return {
            sideways: document.documentElement.scrollWidth - window.innerWidth,
            targetBelowHeader: target.top >= header.bottom - 1,
            linkInSight: link.right <= window.innerWidth,
            count: document.getElementById('count')!.textContent,
          };
        });
        expect(seen).toEqual({
          sideways: 0,
          targetBelowHeader: true,
          linkInSight: true,
          count: '1 kind',
        });
      } finally {
        await page.close();
      }
    });
  }
});
