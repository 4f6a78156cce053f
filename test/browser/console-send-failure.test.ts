/**
 * The agent's reply in the web console when it cannot be sent, in headless Chromium: the
 * simulator refuses it, or has stopped. The draft stays in the input with a message that says
 * which, and goes only once a send succeeds. Skipped when /usr/bin/chromium is missing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';

describe.skipIf(!hasChromium)('web console: a reply that is not sent', () => {
  let browser: Browser;
  let page: Page | undefined;
  let cli: CliServer | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await page?.close();
    if (cli) expect([0, 130]).toContain(await cli.stop());
    await browser?.close();
  });

  it('keeps the draft and says why when the simulator refuses it or is unreachable', async () => {
    cli = await startCliServer(['platform', '--web', '--no-console', '--port', '0', '--json']);
    const { consoleUrl, channels } = cli.listening as unknown as {
      consoleUrl: string;
      channels: Array<{ url: string }>;
    };
    const posted = await fetch(channels[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sender: { id: 'c-1', name: 'Ada' },
        message: { type: 'text', text: 'hi' },
      }),
    });
    expect(posted.status).toBe(200);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.locator('#status.live').waitFor();
    await page.locator('.chat-item', { hasText: 'Ada' }).click();
    await page.locator('#reply-text').waitFor();

    // the simulator answers with an error (a chat it does not know): its answer is shown
    await page.route('**/_sim/agent/message', (route) =>
      route.continue({ postData: JSON.stringify({ chatId: 999, text: 'x', wait: false }) }),
    );
    await page.fill('#reply-text', 'Your order ships today.');
    await page.press('#reply-text', 'Enter');
    await page.locator('#error', { hasText: 'Not sent' }).waitFor();
    expect(await page.locator('#error').textContent()).toMatchInlineSnapshot(
      `"Not sent: the simulator answered "Could not find chat 999. A chat starts when a customer sends a message to the channel URL"; your reply is kept. Press Enter to send it again."`,
    );
    expect(await page.inputValue('#reply-text')).toBe('Your order ships today.');

    // sent again once the simulator takes it: the input and the message clear
    await page.unroute('**/_sim/agent/message');
    await page.press('#reply-text', 'Enter');
    await page.locator('.transcript .line.agent', { hasText: 'Your order ships today.' }).waitFor();
    expect(await page.inputValue('#reply-text')).toBe('');
    expect(await page.locator('#error').textContent()).toBe('');

    // the simulator stops: the reply typed next is kept
    expect([0, 130]).toContain(await cli.stop());
    cli = undefined;
    await page.locator('#status.down', { hasText: 'reconnecting…' }).waitFor();
    await page.fill('#reply-text', 'Anything else?');
    await page.press('#reply-text', 'Enter');
    await page.locator('#error', { hasText: 'Not sent' }).waitFor();
    expect(await page.locator('#error').textContent()).toMatchInlineSnapshot(
      `"Not sent: the simulator is unreachable; your reply is kept. Press Enter to send it again."`,
    );
    expect(await page.inputValue('#reply-text')).toBe('Anything else?');
  });
});
