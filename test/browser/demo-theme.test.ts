/**
 * The demo page of `svc-cli widget` in headless Chromium, in the light and the dark system
 * theme at 1280, 800 and 390 px: the background follows the theme, every visible text reads
 * against what is behind it (WCAG AA: 4.5, 3 for large text) and every input has a name of its
 * own, not only a placeholder. Screenshots go to artifacts/. Skipped without /usr/bin/chromium.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { measure } from '../helpers/contrast.js';

const artifacts = resolve(fileURLToPath(import.meta.url), '../../../artifacts');

describe.skipIf(!hasChromium)('demo page themes', () => {
  let browser: Browser;
  let cli: CliServer;
  let url: string;
  let platformUrl: string;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
    cli = await startCliServer(['widget', '--port', '0', '--json']);
    ({ url, platformUrl } = cli.listening as { url: string; platformUrl: string });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    expect([0, 130]).toContain(await cli?.stop());
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 800, 390]) {
      it(`${colorScheme} at ${width} px: readable text, labelled inputs`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
        try {
          await page.goto(url);
          await page.waitForFunction(() => 'svc_widget' in window);
          await page.fill('#visitor-text', `Hello at ${width}`);
          await page.press('#visitor-text', 'Enter');
          // the message has reached the simulator (its chat exists) before the agent answers
          const visitorId = await page.evaluate(async () => {
            const { svc_widget } = window as unknown as {
              svc_widget: { visitorId: string; flush(): Promise<void> };
            };
            await svc_widget.flush();
            return svc_widget.visitorId;
          });
          const sent = await fetch(`${platformUrl}/_sim/agent/message`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              customerId: visitorId,
              message: {
                type: 'photo',
                file: 'https://example.com/a.png',
                file_name: 'a.png',
                file_size: 1234,
              },
            }),
          });
          expect(sent.status).toBe(200);
          await page.locator('#messages li a', { hasText: 'a.png' }).waitFor();
          await page.click('#custom-data');
          const seen = await page.evaluate(measure);
          expect(seen.low).toEqual([]);
          expect(seen.checked).toBeGreaterThan(10);
          if (colorScheme === 'dark') expect(seen.background).toBeLessThan(0.05);
          else expect(seen.background).toBeGreaterThan(0.9);
          const unnamed = await page.evaluate(() =>
            Array.from(document.querySelectorAll('input'))
              .filter((i) => !i.getAttribute('aria-label') && i.labels?.length === 0)
              .map((i) => i.name || i.id),
          );
          expect(unnamed).toEqual([]);
          await page.screenshot({
            path: `${artifacts}/demo-${colorScheme}-${width}.png`,
            fullPage: true,
          });
        } finally {
          await page.close();
        }
      });
    }
  }
});
