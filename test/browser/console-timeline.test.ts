/**
 * The web console's Timeline tab in headless Chromium: `svc-cli platform --web` with an
 * integrator that refuses the agent's first delivery attempt; the selected chat's exchanges
 * are drawn as the report's swimlanes (src/trace/html.ts), the attempts and the redelivery
 * gap in sight, and a new message appears without a reload. Screenshots at 1280, 800 and
 * 390 px, light and dark, go to a temporary folder named in the test's output.
 * Skipped when /usr/bin/chromium is missing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startIntegrator } from '../helpers/refusing-integrator.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { measureLaneHeads, touchingHeads } from '../helpers/lane-heads.js';

describe.skipIf(!hasChromium)('web console Timeline tab in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * A platform whose integrator refuses the agent's first text once (HTTP 500; typing notices,
   * spec 2.3, pass): a customer asks, the agent answers in the console, the answer is
   * delivered at its second attempt, 3 s of protocol time later (spec 8). `route` may change
   * the page's requests before it opens.
   */
  async function scene(route?: (page: Page) => Promise<void>) {
    let texts = 0;
    const integrator = await startIntegrator(
      (body) => body.includes('"type":"text"') && texts++ === 0,
    );
    cleanups.push(() => integrator.close());
    // --time-scale 0.5: an attempt has 1.5 wall seconds (web-console.test.ts says why)
    const cli: CliServer = await startCliServer([
      'platform',
      '--web',
      '--port',
      '0',
      '--json',
      '--time-scale',
      '0.5',
      '--integrator-url',
      integrator.url,
    ]);
    cleanups.push(async () => expect([0, 130]).toContain(await cli.stop()));
    const { consoleUrl, channels } = cli.listening as unknown as {
      consoleUrl: string;
      channels: Array<{ url: string }>;
    };
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    cleanups.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await route?.(page);
    await page.goto(consoleUrl);
    await page.locator('#status.live').waitFor();
    const posted = await postCustomer(channels[0]!.url, 'Is the blue one in stock?');
    expect(posted.status).toBe(200);
    await page.locator('.transcript .line.visitor', { hasText: 'blue one' }).waitFor();
    await page.fill('#reply-text', 'Yes, 3 left.');
    await page.press('#reply-text', 'Enter');
    await page.locator('.verdict.delivered').waitFor();
    return { page, channelUrl: channels[0]!.url };
  }

  it('draws the selected chat as swimlanes with its attempts, and follows it live', async () => {
    // SVC_SHOTS keeps them past the run (the run's temporary folder is removed after it)
    const shots = process.env.SVC_SHOTS ?? mkdtempSync(join(tmpdir(), 'svc-console-timeline-'));
    console.log(`timeline screenshots: ${shots}`);
    const { page, channelUrl } = await scene();
    // the chat's own button leads to its timeline (the nav's Timeline tab does too)
    await page.click('#chat-head button.to-timeline');
    expect(await page.locator('nav button.active').textContent()).toBe('Timeline');
    const timeline = page.locator('#timeline');
    await timeline.locator('.lanes').waitFor();
    // one lane per party, after the time column
    expect(await timeline.locator('.lanes .head span').allTextContents()).toEqual([
      'time',
      'integrator',
      'platform',
      'bot',
      'hooks',
      'widget',
    ]);
    // the refused attempt dashed red, the accepted one 3 s of protocol time later
    const first = timeline.locator('.x.failed[data-lane=integrator]', {
      hasText: /agent\.text attempt 1 “Yes, 3 left\.” 500/,
    });
    await first.waitFor();
    const second = timeline.locator('.x[data-lane=integrator]', {
      hasText: /agent\.text attempt 2 “Yes, 3 left\.” 200 accepted/,
    });
    await second.waitFor();
    // spec 8: the second attempt 3 s of protocol time after the first, not at once; the clock
    // here runs at real speed, so a timer a loaded machine fires late shows a longer gap
    // (3.7 s seen in npm test beside other work), bounded by the third attempt's 6 s
    const at = async (row: typeof first): Promise<number> =>
      Number(/^\+(\d+\.\d{3}) s/.exec((await row.locator('.t').textContent()) ?? '')?.[1]);
    const gap = (await at(second)) - (await at(first));
    expect(gap).toBeGreaterThan(2.5);
    expect(gap).toBeLessThan(6);
    await second.locator('.gap', { hasText: /^gap \d+\.\d{3} s$/ }).waitFor();
    // the redelivery names the attempt it repeats
    const firstSeq = await first.getAttribute('data-seq');
    expect(await second.locator('a.cause').textContent()).toBe(`← #${firstSeq}`);
    await timeline.locator('.conv h2', { hasText: 'chat 1' }).waitFor();
    await page.screenshot({ path: join(shots, 'timeline-1280.png') });

    // a new exchange shows up without a reload
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    // (its text is markup: the timeline shows it as text, never runs it)
    const more = await postCustomer(channelUrl, 'And the <img src=x onerror="window.__xss=1">?');
    expect(more.status).toBe(200);
    await timeline
      .locator('.x[data-lane=integrator]', { hasText: /customer\.text “And the <img src=x/ })
      .waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await timeline.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBe(
      undefined,
    );

    // keyboard: the chat picker, then the timeline section
    await page.focus('#timeline-chat');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('conv');

    for (const width of [800, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect({ width, overflow }).toEqual({ width, overflow: 0 });
      // the lane names read whole and apart ("integrator" and "platform" touched at 390 px)
      const heads = await measureLaneHeads(page, '#timeline');
      expect(heads.filter((h) => h.clipped).map((h) => h.text)).toEqual([]);
      expect({ width, touching: touchingHeads(heads) }).toEqual({ width, touching: [] });
      await page.screenshot({ path: join(shots, `timeline-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(shots, 'timeline-1280-dark.png') });
  });

  it('marks a broken invariant in red: a redelivery with another message id', async () => {
    // the journal the page reads is doctored: the second attempt carries another message.id
    // (spec 8: a redelivery keeps its id), which the simulator itself never does
    const { page } = await scene(async (p) => {
      await p.route('**/_sim/journal?since=*', async (route) => {
        let response;
        let page;
        try {
          response = await route.fetch();
          page = (await response.json()) as {
            entries: Array<{ attempt?: number; kind?: string; request: { body?: string } }>;
          };
        } catch {
          return; // the page closed while a poll (every second) was on its way
        }
        for (const entry of page.entries) {
          if (entry.kind !== 'channel.agent.text' || entry.attempt !== 2) continue;
          const body = JSON.parse(entry.request.body ?? '{}');
          body.message.id = 'another-id';
          entry.request.body = JSON.stringify(body);
        }
        await route.fulfill({ response, json: page }).catch(() => undefined);
      });
    });
    await page.click('nav button[data-tab=timeline-tab]');
    const timeline = page.locator('#timeline');
    await timeline.locator('.violation[data-rule=redelivery-id]').waitFor();
    await timeline.locator('.badge.bad', { hasText: '1 violation' }).waitFor();
    expect(await timeline.locator('.x.violating').count()).toBe(2);
    const red = await timeline.locator('.violation').evaluate((el) => getComputedStyle(el).color);
    expect(red).toBe('rgb(207, 34, 46)'); // --bad, light
    if (process.env.SVC_SHOTS)
      await page.screenshot({ path: join(process.env.SVC_SHOTS, 'timeline-violation.png') });
  });
});

/** A customer's text message on the channel URL (spec 2.1), as an integrator sends it. */
function postCustomer(channelUrl: string, text: string): Promise<Response> {
  return fetch(channelUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      sender: { id: 'c-42', name: 'Sam Customer' },
      message: { type: 'text', text },
    }),
  });
}
