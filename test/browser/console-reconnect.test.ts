/**
 * The web console across a simulator restart, in headless Chromium: `svc-cli platform --web`
 * on a fixed port with the console open, stopped (the console says "reconnecting…") and
 * started again on the same port; without a reload the console follows the new simulator: its
 * chats (the old ones gone), its events, its journal and the Timeline of its chat.
 * Skipped when /usr/bin/chromium is missing.
 */
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/chromium.js';
import { restartStage } from '../helpers/restart-stage.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { freePort } from '../helpers/free-port.js';

interface Started {
  cli: CliServer;
  consoleUrl: string;
  channelUrl: string;
}

async function platformOn(port: number): Promise<Started> {
  const cli = await startCliServer(['platform', '--web', '--port', String(port), '--json']);
  const listening = cli.listening as unknown as {
    consoleUrl: string;
    channels: Array<{ url: string }>;
  };
  return { cli, consoleUrl: listening.consoleUrl, channelUrl: listening.channels[0]!.url };
}

function postCustomer(channelUrl: string, id: string, name: string, text: string) {
  return fetch(channelUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender: { id, name }, message: { type: 'text', text } }),
  });
}

describe.skipIf(!hasChromium)('web console across a simulator restart', () => {
  const { running, openPage } = restartStage();

  it('says reconnecting while the simulator is down and follows the new one without a reload', async () => {
    const port = await freePort();
    const first = await platformOn(port);
    running.push(first.cli);
    const page = await openPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(first.consoleUrl);
    await page.locator('#status.live').waitFor();
    expect((await postCustomer(first.channelUrl, 'c-1', 'Ada Before', 'first life')).status).toBe(
      200,
    );
    await page.locator('.chat-item', { hasText: 'Ada Before' }).waitFor();
    await page.click('nav button[data-tab="timeline-tab"]');
    await page.locator('#timeline .x', { hasText: 'first life' }).waitFor();
    // a reload would lose this
    await page.evaluate(() => Object.assign(window, { svcSamePage: true }));

    expect([0, 130]).toContain(await first.cli.stop());
    running.splice(0);
    await page.locator('#status.down', { hasText: 'reconnecting…' }).waitFor();
    // at 800 px the longer status wraps the header between its parts, not inside the title or
    // the agents' switch (each was broken over two lines)
    await page.setViewportSize({ width: 800, height: 800 });
    const lines = await page.evaluate(() =>
      ['header h1', '#status', '#agents'].map((selector) => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector(selector)!);
        return range.getClientRects().length;
      }),
    );
    expect(lines).toEqual([1, 1, 1]);
    await page.setViewportSize({ width: 1280, height: 800 });

    const second = await platformOn(port);
    running.push(second.cli);
    expect((await postCustomer(second.channelUrl, 'c-2', 'Bea After', 'second life')).status).toBe(
      200,
    );
    await page.locator('#status.live').waitFor();
    // the Timeline tab (still open) draws the new simulator's chat from its journal
    await page.locator('#timeline .x', { hasText: 'second life' }).waitFor();
    expect(await page.locator('#timeline').textContent()).not.toContain('first life');
    await page.click('nav button[data-tab="chats-tab"]');
    await page.locator('.chat-item', { hasText: 'Bea After' }).waitFor();
    expect(await page.locator('.chat-item').allTextContents()).toEqual([
      expect.stringContaining('Bea After'),
    ]);
    await page.locator('.transcript .line.visitor', { hasText: 'second life' }).waitFor();
    await page.click('nav button[data-tab="journal-tab"]');
    await page.locator('table.journal td.kind', { hasText: 'channel.customer.text' }).waitFor();
    expect(await page.locator('table.journal tbody tr').count()).toBe(1);
    await page.click('nav button[data-tab="events-tab"]');
    await page.locator('#event-log .event', { hasText: 'chat-opened' }).first().waitFor();
    expect(await page.locator('#error').textContent()).toBe('');
    expect(await page.evaluate(() => 'svcSamePage' in window)).toBe(true);
  });
});
