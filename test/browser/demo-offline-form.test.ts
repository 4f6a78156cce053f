/**
 * The demo page's offline form (sendOfflineMessage, spec 4.5) in headless Chromium, with the
 * simulator's agents offline: a message taken clears its field as a site's form does and keeps
 * the e-mail; one refused (agents online) stays to be corrected. Skipped without
 * /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/chromium.js';
import { restartStage } from '../helpers/restart-stage.js';
import { startCliServer, startDemoWidget } from '../helpers/cli-server.js';

describe.skipIf(!hasChromium)('demo page: the offline form', () => {
  const { running, openPage } = restartStage();

  for (const agents of ['offline', 'online'] as const) {
    it(`agents ${agents}: the message field is ${agents === 'offline' ? 'cleared' : 'kept'}`, async () => {
      const platform = await startCliServer([
        'platform',
        '--no-console',
        '--port',
        '0',
        '--json',
        '--agents',
        agents,
      ]);
      running.push(platform);
      const widget = await startDemoWidget(platform.listening.url);
      running.push(widget);
      const page = await openPage({ viewport: { width: 800, height: 900 } });
      page.setDefaultTimeout(15_000);
      await page.goto(widget.listening.url);
      await page.locator('#chat-mode', { hasText: agents }).waitFor();
      await page.fill('#offline-form [name=email]', 'ann@example.com');
      await page.fill('#offline-form [name=message]', 'Please call me back');
      await page.click('#offline-form button[type=submit]');
      const result = page.locator('#results li', { hasText: 'sendOfflineMessage' }).first();
      await result.waitFor();
      expect(await result.textContent()).toContain(agents === 'offline' ? '"ok"' : '"fail"');
      expect(await page.inputValue('#offline-form [name=email]')).toBe('ann@example.com');
      expect(await page.inputValue('#offline-form [name=message]')).toBe(
        agents === 'offline' ? '' : 'Please call me back',
      );
    });
  }
});
