/**
 * A page served anywhere (a PHP or Python site: no node_modules) loads the page-script double
 * from the simulator itself, `<script src="<simulator>/_sim/widget/svc-widget.js">`, with no
 * data-platform-url: the script talks to the simulator that served it. In headless Chromium,
 * the page on a server of its own (another origin). Skipped when /usr/bin/chromium is missing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import type { Widget } from '../../src/widget/index.js';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { startPlatform } from '../helpers/platform.js';

describe.skipIf(!hasChromium)('the widget script served by the simulator', () => {
  let browser: Browser;
  let site: Server;
  let harness: Awaited<ReturnType<typeof startPlatform>>;
  let siteUrl: string;

  beforeAll(async () => {
    harness = await startPlatform({ clock: createClock({ timeScale: 0.01 }) });
    const page = `<!doctype html><html><head><title>shop</title>
<script src="${harness.url}/_sim/widget/svc-widget.js"></script></head>
<body><h1>shop</h1></body></html>`;
    site = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(page),
    );
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (site ? site.close(() => done()) : done()));
  });

  it('talks to the simulator that served it, with no data-platform-url', async () => {
    const page = await browser.newPage();
    const said: string[] = [];
    page.on('console', (m) => said.push(m.text()));
    await page.goto(siteUrl);
    await page.waitForFunction(() => 'svc_widget' in window);
    await page.evaluate(async () => {
      const widget = (window as unknown as { svc_widget: Widget }).svc_widget;
      await widget.ready;
      widget.visitor.send('Hello from my own page');
      await widget.flush();
    });
    const texts = [...harness.platform.core.state.chats.values()].flatMap((c) =>
      c.lines.map((l) => l.text),
    );
    expect(texts).toEqual(['Hello from my own page']);
    // it did not say it runs alone
    expect(said.filter((line) => line.includes('talking to no simulator'))).toEqual([]);
    await page.close();
  });
});
