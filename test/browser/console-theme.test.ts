/**
 * The web console in a dark system theme (`prefers-color-scheme: dark`), in headless Chromium:
 * `svc-cli platform --web` with a chat in it; each tab's background is dark and every visible
 * text reads against what is behind it (WCAG AA: a contrast of 4.5, 3 for large text), at
 * 1280, 800 and 390 px. Screenshots go to $SVC_SHOTS when set, else to a temporary folder
 * named in the test's output. Skipped when /usr/bin/chromium is missing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { measure } from '../helpers/contrast.js';

describe.skipIf(!hasChromium)('web console in a dark system theme', () => {
  let browser: Browser;
  let cli: CliServer;
  let consoleUrl: string;
  const shots = process.env.SVC_SHOTS ?? mkdtempSync(join(tmpdir(), 'svc-console-dark-'));

  beforeAll(async () => {
    browser = await launchChromium();
    cli = await startCliServer(['platform', '--web', '--port', '0', '--json']);
    const listening = cli.listening as unknown as {
      consoleUrl: string;
      channels: Array<{ url: string }>;
    };
    consoleUrl = listening.consoleUrl;
    const posted = await fetch(listening.channels[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sender: { id: 'c-7', name: 'Robin Customer' },
        message: { type: 'text', text: 'Can I change the delivery address?' },
      }),
    });
    expect(posted.status).toBe(200);
    console.log(`dark console screenshots: ${shots}`);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    expect([0, 130]).toContain(await cli?.stop());
  });

  async function openDark(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: 'dark' });
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.locator('#status.live').waitFor();
    return page;
  }

  for (const width of [1280, 800, 390]) {
    it(`is dark with readable text on every tab at ${width} px`, async () => {
      const page = await openDark(width);
      try {
        await page.click('.chat-item');
        await page.locator('.transcript .line.visitor', { hasText: 'delivery address' }).waitFor();
        const tabs: Array<[string, () => Promise<void>]> = [
          ['chats', async () => {}],
          ['events', () => page.click('nav button[data-tab="events-tab"]')],
          [
            'journal',
            async () => {
              await page.click('nav button[data-tab="journal-tab"]');
              await page.locator('table.journal tbody tr').first().click();
              // the list fits its pane: no sideways scroll (at 800 px it was 14 px too wide)
              const list = await page.evaluate(() => {
                const el = document.getElementById('journal-list')!;
                return { over: el.scrollWidth - el.clientWidth, left: el.scrollLeft };
              });
              expect(list).toEqual({ over: 0, left: 0 });
            },
          ],
          [
            'timeline',
            async () => {
              await page.click('nav button[data-tab="timeline-tab"]');
              await page.locator('#timeline .lanes').waitFor();
            },
          ],
        ];
        if (width === 800) {
          // two columns and the details under them: the chat keeps most of the height (the
          // details, a few lines, got 420 of 750 px and left the chat 330), and the details
          // panel holds no tall empty band below its lines
          const panes = await page.evaluate(() => {
            const h = (id: string) => document.getElementById(id)!.getBoundingClientRect();
            const details = document.getElementById('details')!;
            return {
              chat: h('chat').height,
              details: h('details').height,
              detailsContent: details.scrollHeight,
              below: window.innerHeight - h('chat').bottom,
            };
          });
          expect(panes.chat).toBeGreaterThan(panes.details);
          expect(panes.details).toBeLessThanOrEqual(panes.detailsContent + 2);
          expect(panes.below).toBeLessThanOrEqual(0.4 * 800 + 1);
        }
        for (const [tab, show] of tabs) {
          await show();
          const seen = await page.evaluate(measure);
          // a dark page: the body's luminance is near black's (white is 1)
          expect({ tab, background: seen.background < 0.05 }).toEqual({ tab, background: true });
          expect(seen.checked).toBeGreaterThan(5);
          expect({ tab, low: seen.low }).toEqual({ tab, low: [] });
          await page.screenshot({ path: join(shots, `console-dark-${tab}-${width}.png`) });
        }
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await page.close();
      }
    });
  }

  it('stays light in a light system theme', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(consoleUrl);
      await page.locator('#status.live').waitFor();
      const seen = await page.evaluate(measure);
      expect(seen.background).toBeGreaterThan(0.8);
      expect(seen.low).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("reads at 4.5:1 in the light theme once an agent answered (the green 'agent' badge)", async () => {
    const answered = await fetch(`${cli.listening.url}/_sim/agent/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Yes, reply with the new one.' }),
    });
    expect(answered.status).toBe(200);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(consoleUrl);
      await page.locator('.chat-item .badge.agent').waitFor();
      await page.locator('.transcript .line', { hasText: 'new one' }).waitFor();
      const seen = await page.evaluate(measure);
      expect(seen.background).toBeGreaterThan(0.8);
      expect(seen.low).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
