/**
 * The page script's callbacks in the journal, from real Chromium: the bundle on a page served
 * from 127.0.0.1 talks to a simulator over HTTP (data-platform-url), its EventSource hands each
 * push's id on (lastEventId), and the callbacks the pushes caused (svc_onAccept, svc_onCallEnd,
 * spec 6.4) are reported to the widget channel and journaled in the chat, so the trace's
 * `callback-order` invariant reads them.
 * Skipped when /usr/bin/chromium is missing (.ci/run installs it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { createPlatform, sendAgentMessage, type Platform } from '../../src/platform/index.js';
import { checkRecords } from '../../src/trace/invariants.js';
import type { SvcApi, Widget } from '../../src/widget/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

type TestWindow = Window & { svc_api: SvcApi; svc_widget: Widget; ended: boolean };

describe.skipIf(!hasChromium)('widget callbacks journaled from Chromium', () => {
  let dir: string;
  let server: Server;
  let browser: Browser;
  let platform: Platform;
  let pageUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-callbacks-'));
    const bundlePath = join(dir, 'svc-widget.js');
    execFileSync(process.execPath, ['scripts/build-widget.js', '--outfile', bundlePath], {
      cwd: root,
    });
    const bundle = readFileSync(bundlePath, 'utf8');
    // spec 2.6 call statuses 5 s apart, 30 s of talk: 40 ms at this scale
    platform = createPlatform({ clock: createClock({ timeScale: 0.001 }) });
    const { url: platformUrl } = await platform.listen({ port: 0 });
    server = createServer((req, res) => {
      if (req.url === '/svc-widget.js')
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><html><head><title>shop</title><script>window.ended=false;window.svc_onCallEnd=function(){window.ended=true};</script><script src="/svc-widget.js" data-platform-url="${platformUrl}" data-visitor-id="v-chromium"></script></head><body>shop</body></html>`,
          );
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await platform?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reports svc_onAccept and svc_onCallEnd with the ids of their pushes, in order', async () => {
    const page = await browser.newPage();
    await page.goto(pageUrl);
    await page.waitForFunction(() => (window as unknown as TestWindow).svc_widget !== undefined);
    const core = platform.core;
    const opened = new Promise<void>((done) => {
      const off = core.on((e) => {
        if (e.type === 'customer-message') {
          off();
          done();
        }
      });
    });
    await page.evaluate(async () => {
      const w = window as unknown as TestWindow;
      await w.svc_widget.ready;
      w.svc_api.open();
      w.svc_widget.visitor.send('Please call me back');
      await w.svc_widget.flush();
    });
    await opened;
    await sendAgentMessage(core, {
      customerId: 'v-chromium',
      message: { type: 'text', text: 'Calling you now.' },
    });
    await page.waitForFunction(
      () => (window as unknown as TestWindow).svc_widget.fired('svc_onAccept').length === 1,
    );
    await page.evaluate(() =>
      (window as unknown as TestWindow).svc_api.startCall('+49 30 1234567'),
    );
    await page.waitForFunction(() => (window as unknown as TestWindow).ended);
    await page.evaluate(() => (window as unknown as TestWindow).svc_widget.flush());
    const records = core.journal.entries();
    const callbacks = records
      .filter((r) => r.kind === 'widget.callback')
      .map((r) => ({
        chat: r.chat,
        status: r.response?.status,
        ...(JSON.parse(r.request.body ?? '{}') as { name: string; event: string; eventId: number }),
      }));
    expect(callbacks).toEqual([
      expect.objectContaining({
        chat: 1,
        status: 200,
        name: 'svc_onAccept',
        event: 'agent_accepted',
      }),
      expect.objectContaining({
        chat: 1,
        status: 200,
        name: 'svc_onCallEnd',
        event: 'call_status',
      }),
    ]);
    expect(callbacks[0]!.eventId).toBeLessThan(callbacks[1]!.eventId);
    expect(checkRecords(records)).toEqual([]);
    await page.close();
  });
});
