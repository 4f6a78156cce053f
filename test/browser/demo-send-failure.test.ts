/**
 * The demo page of `svc-cli widget` when a visitor message cannot be sent, in headless
 * Chromium: the page points at `svc-cli platform`, which stops. The line is marked "not sent"
 * in words with a Retry button the keyboard reaches, the header says the simulator is
 * unreachable at once, and Retry sends the same text once a simulator answers again.
 * Skipped when /usr/bin/chromium is missing.
 */
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/chromium.js';
import { restartStage } from '../helpers/restart-stage.js';
import { startCliServer, startDemoWidget, type CliServer } from '../helpers/cli-server.js';
import { measure } from '../helpers/contrast.js';
import { freePort } from '../helpers/free-port.js';

const platformOn = (port: number): Promise<CliServer> =>
  startCliServer(['platform', '--no-console', '--port', String(port), '--json']);

describe.skipIf(!hasChromium)('demo page: a visitor message that is not sent', () => {
  const { running, openPage } = restartStage();

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: marks the line not sent, says unreachable at once, retries`, async () => {
      const port = await freePort();
      const platformUrl = `http://127.0.0.1:${port}`;
      let platform = await platformOn(port);
      running.push(platform);
      const widget = await startDemoWidget(platformUrl);
      running.push(widget);
      const page = await openPage({ viewport: { width: 390, height: 800 }, colorScheme });
      page.setDefaultTimeout(15_000);
      await page.goto(widget.listening.url);
      await page.waitForFunction(() => 'svc_widget' in window);
      await page.locator('#chat-mode', { hasText: 'online' }).waitFor();

      // the simulator stops; the page has not polled it since
      expect([0, 130]).toContain(await platform.stop());
      running.splice(running.indexOf(platform), 1);
      await page.fill('#visitor-text', 'Where is my order?');
      await page.press('#visitor-text', 'Enter');
      const line = page.locator('#messages li.not-sent', { hasText: 'Where is my order?' });
      await line.waitFor();
      expect(await line.locator('.send-status').textContent()).toBe(
        'Not sent: the simulator is unreachable. Retry',
      );
      // drawn in the same pass as the mark, not at the next poll seconds later
      expect(await page.locator('#chat-mode').textContent()).toBe('simulator unreachable');
      expect((await page.evaluate(measure)).low).toEqual([]);
      // the longer status leaves the widget's title whole: each text of the head on one line
      // ("Chat with us" was squeezed onto two, beside a status and a state of two lines each)
      const headLines = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.widget-head > *')).map((item) => {
          const range = document.createRange();
          range.selectNodeContents(item);
          const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
          return `${item.textContent ?? ''}: ${tops.size}`;
        }),
      );
      expect(headLines).toEqual([
        'Chat with us: 1',
        'simulator unreachable: 1',
        'widget state: chat: 1',
      ]);

      // the keyboard reaches Retry (just before the input); a retry that fails again keeps
      // the mark and the keyboard's place
      await page.press('#visitor-text', 'Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('retry');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () =>
          (
            window as unknown as { svc_widget: { issues: { code: string }[] } }
          ).svc_widget.issues.filter((i) => i.code === 'unreachable').length >= 2,
      );
      await line.waitFor();
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('retry');

      // a simulator answers again: Retry sends the same text, once
      platform = await platformOn(port);
      running.push(platform);
      await page.keyboard.press('Enter');
      await line.waitFor({ state: 'detached' });
      await page.locator('#chat-mode', { hasText: /^online$/ }).waitFor();
      expect(await page.locator('#messages li', { hasText: 'Where is my order?' }).count()).toBe(1);
      const { chats } = (await (await fetch(`${platformUrl}/_sim/chats`)).json()) as {
        chats: Array<{ lines: Array<{ text?: string }> }>;
      };
      expect(chats.flatMap((c) => c.lines.map((l) => l.text))).toEqual(['Where is my order?']);

      await page.close();
      for (const cli of running.splice(0)) expect([0, 130]).toContain(await cli.stop());
    });
  }
});
