/**
 * The web console with the keyboard only, in headless Chromium: `svc-cli platform --web` with
 * two chats. Tab reaches each chat of the list and each journal row; Enter or Space picks it,
 * and the focus stays on it when the list is drawn again. Skipped when /usr/bin/chromium is
 * missing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';

/** Presses Tab until the focused element matches `selector` (at most `limit` times). */
async function tabTo(page: Page, selector: string, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focusedText = (page: Page): Promise<string> =>
  page.evaluate(() => document.activeElement?.textContent ?? '');

describe.skipIf(!hasChromium)('web console by keyboard', () => {
  let browser: Browser;
  let cli: CliServer;
  let url: string;

  beforeAll(async () => {
    cli = await startCliServer([
      'platform',
      '--port',
      '0',
      '--web',
      '--no-console',
      '--json',
      '--channel-id',
      'shop',
      '--random-string',
      'dev-only-secret-1234',
    ]);
    url = cli.listening.url;
    for (const [id, name, text] of [
      ['c-1', 'Kim', 'first'],
      ['c-2', 'Lou', 'second'],
    ] as const) {
      const res = await fetch(`${url}/dev-only-secret-1234/shop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: { id, name }, message: { type: 'text', text } }),
      });
      expect(res.status).toBe(200);
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    expect([0, 130]).toContain(await cli?.stop());
  });

  it('Tab reaches every chat and journal row; Enter and Space pick one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${url}/_sim/console/`);
    await page.locator('.chat-item', { hasText: 'Kim' }).waitFor();
    await page.locator('.chat-item', { hasText: 'Lou' }).waitFor();

    // the newest chat (Lou) is shown; the keyboard picks Kim's
    await tabTo(page, '.chat-item');
    expect(await focusedText(page)).toContain('Lou');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toContain('Kim');
    await page.keyboard.press('Enter');
    await page.locator('#chat-head', { hasText: 'Kim' }).waitFor();
    // drawn again with Kim's selected: the focus is still on Kim's, so Tab goes on from there
    expect(await page.evaluate(() => document.activeElement?.matches('.chat-item.selected'))).toBe(
      true,
    );
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText(page)).toContain('Lou');
    await page.keyboard.press(' ');
    await page.locator('#chat-head', { hasText: 'Lou' }).waitFor();

    await page.click('nav button[data-tab=journal-tab]');
    await page.locator('table.journal tbody tr').first().waitFor();
    await tabTo(page, 'table.journal tbody tr');
    await page.keyboard.press('Enter');
    await page.locator('#journal-detail pre').first().waitFor();
    expect(await page.evaluate(() => document.activeElement?.matches('tr.selected'))).toBe(true);
    await page.close();
  });
});
