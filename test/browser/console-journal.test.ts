/**
 * The web console's Journal tab in headless Chromium at 1280, 800 and 390 px: a picked
 * exchange's heading breaks inside its URL rather than run past the pane, the list keeps its
 * url column (cut with an ellipsis at 1280 px, wrapped whole at 800 px beside the longest kinds,
 * the whole URL in its title), and a
 * click on a row leaves the list pane where it was (it used to scroll it sideways).
 * Screenshots go to $SVC_SHOTS when set, else to a temporary folder named in the output.
 * Skipped when /usr/bin/chromium is missing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startCliServer } from '../helpers/cli-server.js';

describe.skipIf(!hasChromium)('web console Journal tab in headless Chromium', () => {
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

  it('shows a pushed event without an empty header box above its data', async () => {
    const cli = await startCliServer(['platform', '--web', '--port', '0', '--json']);
    cleanups.push(async () => expect([0, 130]).toContain(await cli.stop()));
    const { consoleUrl, url } = cli.listening as { consoleUrl: string; url: string };
    // a page's event stream: the simulator pushes it the chat mode, a journal record
    const stream = new AbortController();
    cleanups.push(() => Promise.resolve(stream.abort()));
    const opened = await fetch(`${url}/_sim/widget/events?visitor=v-1`, { signal: stream.signal });
    await opened.body!.getReader().read();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    cleanups.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.click('nav button[data-tab=journal-tab]');
    await page.locator('table.journal tbody tr', { hasText: 'widget.push.chat_mode' }).click();
    await page.locator('#journal-detail h4', { hasText: 'Pushed event' }).waitFor();
    // a push has no HTTP headers: an empty grey box stood between the heading and the data
    const boxes = await page.$$eval('#journal-detail pre', (pres) =>
      pres.map((p) => p.textContent),
    );
    expect(boxes).toHaveLength(1);
    expect(JSON.parse(boxes[0]!)).toMatchObject({ type: 'chat_mode' });
  });

  it('wraps the picked exchange’s URL, keeps the url column and the pane in place', async () => {
    const shots = process.env.SVC_SHOTS ?? mkdtempSync(join(tmpdir(), 'svc-console-journal-'));
    console.log(`journal screenshots: ${shots}`);
    const cli = await startCliServer(['platform', '--web', '--port', '0', '--json']);
    cleanups.push(async () => expect([0, 130]).toContain(await cli.stop()));
    const { consoleUrl, url } = cli.listening as { consoleUrl: string; url: string };
    // a widget event: the longest URL of the platform's own (`/_sim/widget/events`)
    const events = `${url}/_sim/widget/events`;
    const sent = await fetch(events, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'visitor_message', visitorId: 'v-1', text: 'Hello there' }),
    });
    expect(sent.status).toBeLessThan(500);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    cleanups.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.locator('#status.live').waitFor();
    await page.click('nav button[data-tab=journal-tab]');
    const row = page.locator('table.journal tbody tr', { hasText: 'widget' }).first();
    await row.waitFor();

    for (const width of [1280, 800, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await row.click();
      const heading = page.locator('#journal-detail h3');
      await heading.filter({ hasText: events }).waitFor();
      const seen = await page.evaluate(() => {
        const h3 = document.querySelector('#journal-detail h3')!;
        const list = document.getElementById('journal-list')!;
        const cell = document.querySelector<HTMLElement>('table.journal tbody td.url');
        return {
          headingOverflow: h3.scrollWidth - h3.clientWidth,
          headingRight: h3.getBoundingClientRect().right,
          listScrollLeft: list.scrollLeft,
          listOverflow: list.scrollWidth - list.clientWidth,
          pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
          url:
            cell && cell.offsetWidth > 0
              ? {
                  title: cell.title,
                  ellipsis: getComputedStyle(cell).textOverflow,
                  right: cell.getBoundingClientRect().right,
                  listRight: list.getBoundingClientRect().right,
                }
              : undefined,
        };
      });
      expect({ width, overflow: seen.headingOverflow }).toEqual({ width, overflow: 0 });
      expect(seen.headingRight).toBeLessThanOrEqual(width);
      expect({ width, left: seen.listScrollLeft, over: seen.listOverflow <= 0 }).toEqual({
        width,
        left: 0,
        over: true,
      });
      expect(seen.pageOverflow).toBeLessThanOrEqual(0);
      if (width >= 800) {
        // the url column stays, inside its pane, the whole URL in its title
        expect(seen.url, `url column at ${width}`).toBeDefined();
        expect(seen.url!.title).toBe(events);
        expect(seen.url!.right).toBeLessThanOrEqual(seen.url!.listRight);
      }
      // where there is room, one line cut with an ellipsis; at 800 px it wraps, whole
      if (width > 900) expect(seen.url!.ellipsis).toBe('ellipsis');
      await page.screenshot({ path: join(shots, `journal-${width}.png`) });
    }
  });

  it('shows the filter’s whole placeholder at 1280, 800 and 390 px', async () => {
    const cli = await startCliServer(['platform', '--web', '--port', '0', '--json']);
    cleanups.push(async () => expect([0, 130]).toContain(await cli.stop()));
    const { consoleUrl } = cli.listening as { consoleUrl: string; url: string };
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    cleanups.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.click('nav button[data-tab=journal-tab]');
    const filter = page.locator('.journal-toolbar input[type=search]');
    await filter.waitFor();
    for (const width of [1280, 800, 390]) {
      await page.setViewportSize({ width, height: 800 });
      // the placeholder's text, measured in the input's font, against the room inside it
      const fit = await filter.evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const probe = document.createElement('span');
        probe.style.font = style.font;
        probe.style.whiteSpace = 'pre';
        probe.style.position = 'absolute';
        probe.textContent = input.placeholder;
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        const room =
          input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { text: Math.ceil(text), room: Math.floor(room) };
      });
      // at 800 px it was cut to "filter: kind, url, status… (e.g. hook 500,"
      expect({ width, fits: fit.text <= fit.room }).toEqual({ width, fits: true });
    }
  });

  it('breaks a widget kind after a dot at 800 px so its url keeps a line', async () => {
    const cli = await startCliServer(['platform', '--web', '--port', '0', '--json']);
    cleanups.push(async () => expect([0, 130]).toContain(await cli.stop()));
    const { consoleUrl, url } = cli.listening as { consoleUrl: string; url: string };
    // a page's stream (widget.push.chat_mode) and a visitor's message (widget.visitor_message)
    const stream = new AbortController();
    cleanups.push(() => Promise.resolve(stream.abort()));
    const opened = await fetch(`${url}/_sim/widget/events?visitor=v-1`, { signal: stream.signal });
    await opened.body!.getReader().read();
    const sent = await fetch(`${url}/_sim/widget/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'visitor_message',
        visitorId: 'v-1',
        text: 'Hello there',
        first: true,
      }),
    });
    expect(sent.status).toBe(200);
    const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
    cleanups.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.click('nav button[data-tab=journal-tab]');
    await page.locator('table.journal tbody tr', { hasText: 'widget.visitor_message' }).waitFor();
    const rows = await page.$$eval('table.journal tbody tr', (trs) =>
      trs.map((tr) => {
        const kind = tr.querySelector<HTMLElement>('td.kind')!;
        const cell = tr.querySelector<HTMLElement>('td.url')!;
        // the lines of the text itself: a cell is as tall as its row
        const text = document.createRange();
        text.selectNodeContents(cell);
        const tops = new Set(Array.from(text.getClientRects()).map((r) => Math.round(r.top)));
        return { kind: kind.textContent, url: cell.textContent, urlLines: tops.size };
      }),
    );
    expect(rows.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['widget.visitor_message', 'widget.push.chat_mode']),
    );
    // beside a kind kept on one line, `/_sim/widget/events` took three lines in a 70 px column
    for (const row of rows) expect(row).toEqual({ ...row, urlLines: 1 });
  });

  it('keeps each url readable at 800 px beside long kinds: the path, whole, not `127…`', async () => {
    const shots = process.env.SVC_SHOTS ?? mkdtempSync(join(tmpdir(), 'svc-console-journal-'));
    const cli = await startCliServer([
      'platform',
      '--web',
      '--port',
      '0',
      '--json',
      '--channel-id',
      'shop',
    ]);
    cleanups.push(async () => expect([0, 130]).toContain(await cli.stop()));
    const { consoleUrl, url, channels } = cli.listening as {
      consoleUrl: string;
      url: string;
      channels: { url: string }[];
    };
    // the longest kinds of a channel: a customer's text, and the control API's own traffic
    const sent = await fetch(channels[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sender: { id: 'c-1', name: 'Ann' },
        message: { type: 'text', text: 'Where is my order?' },
      }),
    });
    expect(sent.status).toBe(200);
    const agents = await fetch(`${url}/_sim/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ online: true }),
    });
    expect(agents.status).toBe(200);
    const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
    cleanups.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await page.goto(consoleUrl);
    await page.locator('#status.live').waitFor();
    await page.click('nav button[data-tab=journal-tab]');
    await page.check('.journal-toolbar input[type=checkbox]');
    await page
      .locator('table.journal tbody tr', { hasText: 'channel.customer.text' })
      .first()
      .click();
    const cells = await page.$$eval('table.journal tbody td.url', (tds) =>
      tds.map((td) => ({
        text: td.textContent,
        width: td.getBoundingClientRect().width,
        cut: td.scrollWidth > td.clientWidth,
      })),
    );
    await page.screenshot({ path: join(shots, 'journal-800-kinds.png') });
    // the simulator's own host is the same on every row: the column shows the path, all of it
    // (it showed `127…`, cut to 50 px beside the time, the kind and the method)
    expect(cells.map((c) => c.text)).toEqual(expect.arrayContaining(['/***/shop', '/_sim/agents']));
    for (const cell of cells) {
      expect(cell.cut, cell.text).toBe(false);
      expect(cell.width, cell.text).toBeGreaterThanOrEqual(100);
    }
  });
});
