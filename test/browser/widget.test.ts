/**
 * The browser bundle in real headless Chromium: a page served from 127.0.0.1 loads
 * svc-widget.js with a <script> tag; svc_api is called through page.evaluate.
 * Skipped when /usr/bin/chromium is missing (.ci/run installs it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/chromium.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcApi, Widget } from '../../src/widget/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

/** What the test page puts on window, as seen inside page.evaluate. */
type TestWindow = Window & {
  svc_api: SvcApi;
  svc_widget: Widget;
  loaded: number;
  events: unknown[][];
};

const CALLBACKS = [
  'svc_onOpen',
  'svc_onClose',
  'svc_onChangeState',
  'svc_onMessageSent',
  'svc_onAccept',
  'svc_onIntroduction',
  'svc_onCallStart',
  'svc_onCallEnd',
];

/** The page: callbacks defined before the tag; query parameters become data-* attributes. */
function renderPage(query: URLSearchParams): string {
  // ?below: the callbacks are defined in a script after the tag, as many pages do
  const below = query.has('below');
  query.delete('below');
  // ?early: a script right below the tag calls svc_api before svc_onLoadCallback has run
  const early = query.has('early')
    ? `<script>svc_api.setUserToken('u-1'); svc_api.setUserToken('u-2'); svc_api.chatMode();</script>`
    : '';
  query.delete('early');
  const data = [...query].map(([k, v]) => ` data-${k}="${v.replace(/[^\w:/.-]/g, '')}"`).join('');
  const callbacks = `<script>
window.loaded = 0; window.events = [];
window.svc_onLoadCallback = function () { window.loaded++; };
${JSON.stringify(CALLBACKS)}.forEach(function (name) {
  window[name] = function () { window.events.push([name].concat([].slice.call(arguments))); };
});
</script>`;
  const tag = `<script src="/svc-widget.js"${data}></script>${early}`;
  return `<!doctype html><html><head><title>shop</title>${below ? tag + callbacks : callbacks + tag}</head><body><h1>shop</h1></body></html>`;
}

describe.skipIf(!hasChromium)('page-script double in headless Chromium', () => {
  let dir: string;
  let server: Server;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;

  beforeAll(async () => {
    // Build the bundle from the current sources with the real build script.
    dir = mkdtempSync(join(tmpdir(), 'svc-widget-'));
    const bundlePath = join(dir, 'svc-widget.js');
    execFileSync(process.execPath, ['scripts/build-widget.js', '--outfile', bundlePath], {
      cwd: root,
    });
    const bundle = readFileSync(bundlePath, 'utf8');
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/svc-widget.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      } else if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(renderPage(url.searchParams));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  async function load(query = ''): Promise<void> {
    await page.goto(`${baseUrl}/${query}`);
    await page.waitForFunction(() => (window as unknown as TestWindow).loaded === 1);
  }

  it('installs svc_api and fires svc_onLoadCallback once', async () => {
    await load();
    const methods = await page.evaluate(() =>
      Object.keys((window as unknown as TestWindow).svc_api).sort(),
    );
    expect(methods).toHaveLength(13);
    expect(methods).toContain('isCallbackEnabled');
    expect(await page.evaluate(() => (window as unknown as TestWindow).svc_api.chatMode())).toBe(
      'online',
    );
  });

  it('runs a chat: open, first message, agent reply, close to chat/min', async () => {
    await load();
    await page.evaluate(() => {
      const w = window as unknown as TestWindow;
      w.svc_api.open();
      w.svc_widget.visitor.send('Where is my order?');
      w.svc_widget.visitor.send('It is #42');
      w.svc_widget.agent.accept('Bob');
      w.svc_widget.visitor.fillContacts({ name: 'Ann', email: 'ann@shop.test' });
      w.svc_api.close();
    });
    const events = await page.evaluate(() => (window as unknown as TestWindow).events);
    expect(events).toEqual([
      ['svc_onOpen'],
      ['svc_onChangeState', 'chat'],
      ['svc_onMessageSent'],
      ['svc_onAccept'],
      ['svc_onIntroduction'],
      ['svc_onClose'],
      ['svc_onChangeState', 'chat/min'],
    ]);
    expect(
      await page.evaluate(() => (window as unknown as TestWindow).svc_api.getContactInfo()),
    ).toEqual({ name: 'Ann', email: 'ann@shop.test' });
  });

  it('answers the async methods: getVisitorNumber and isCallbackEnabled', async () => {
    await load();
    const answers = await page.evaluate(async () => {
      const api = (window as unknown as TestWindow).svc_api;
      const visitorNumber = await new Promise((done) =>
        api.getVisitorNumber((err, n) => done([err, n])),
      );
      const callback = await new Promise((done) => api.isCallbackEnabled(done));
      return { visitorNumber, callback };
    });
    expect(answers).toEqual({ visitorNumber: [null, 1], callback: { result: 'ok' } });
  });

  it('returns the spec 4.5 shapes: custom data, user token, safe URL on the real origin', async () => {
    await load('?safe-url=true');
    const results = await page.evaluate((origin) => {
      const w = window as unknown as TestWindow;
      return {
        notArray: w.svc_api.setCustomData('x'),
        ok: w.svc_api.setCustomData([
          { content: '<b>42</b>', link: `${origin}/orders/42` },
          { content: 'crm', link: 'https://crm.example/card/1' },
        ]),
        kept: w.svc_widget.session.customData,
        token: w.svc_api.setUserToken('u-1'),
        noToken: w.svc_api.setUserToken(''),
      };
    }, baseUrl);
    expect(results).toEqual({
      notArray: { result: 'fail', reason: 'custom data must be an array' },
      ok: { result: 'ok' },
      kept: [
        { content: '&lt;b&gt;42&lt;/b&gt;', link: `${baseUrl}/orders/42` },
        { content: 'crm' },
      ],
      token: { result: 'ok', token: 'u-1' },
      noToken: { result: 'fail', token: false },
    });
  });

  it('runs a callback call: startCall, connect, end with svc_onCallEnd', async () => {
    await load();
    await page.evaluate(() => {
      const w = window as unknown as TestWindow;
      w.svc_api.open({ start: 'call' });
      w.svc_api.startCall('+1 555 010 0100');
      w.svc_widget.call.connect();
      w.svc_widget.call.end({ result: 'fail', reason: 'no answer' });
    });
    await page.waitForFunction(() =>
      (window as unknown as TestWindow).events.some((e) => e[0] === 'svc_onCallEnd'),
    );
    const events = await page.evaluate(() => (window as unknown as TestWindow).events);
    expect(events).toEqual([
      ['svc_onOpen'],
      ['svc_onChangeState', 'call'],
      ['svc_onCallStart'],
      ['svc_onCallEnd', { result: 'fail', reason: 'no answer' }],
    ]);
  });

  it('reads data-* options: offline chat, callback disabled', async () => {
    await load('?online=false&callback=disabled');
    const results = await page.evaluate(() => {
      const api = (window as unknown as TestWindow).svc_api;
      return {
        mode: api.chatMode(),
        call: api.startCall('+15550100'),
        offline: api.sendOfflineMessage({ email: 'ann@shop.test', message: 'Call me' }),
        invalid: api.sendOfflineMessage({ email: 'ann@', message: 'Call me' }),
      };
    });
    expect(results).toEqual({
      mode: 'offline',
      call: { result: 'fail', reason: 'Callback disabled' },
      offline: { result: 'ok' },
      invalid: { result: 'fail', error: 'email is invalid' },
    });
  });

  it('runs svc_onLoadCallback defined in a script below the tag (newcomer pass)', async () => {
    await load('?below=1');
    expect(await page.evaluate(() => (window as unknown as TestWindow).loaded)).toBe(1);
  });

  it("says a bad data-* value in the page's console and in issues", async () => {
    const said: string[] = [];
    page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
    await load('?online=no');
    const issues = await page.evaluate(() =>
      (window as unknown as TestWindow).svc_widget.issues.map((i) => i.code),
    );
    expect(issues).toEqual(['bad_option']);
    expect(said).toContain(
      'warning: svc_api double: data-online="no" is not true or false: the default is kept',
    );
  });

  it("says in the page's console each method called before svc_onLoadCallback", async () => {
    const said: string[] = [];
    page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
    await load('?early=1');
    // the calls still work (the double is there), once said per method; after the load, quiet
    const seen = await page.evaluate(() => {
      const w = window as unknown as TestWindow;
      w.svc_api.setUserToken('u-3');
      return {
        issues: w.svc_widget.issues.map((i) => `${i.method} ${i.code}`),
        token: w.svc_widget.session.userToken,
      };
    });
    expect(seen).toEqual({
      issues: ['setUserToken before_load', 'chatMode before_load'],
      token: 'u-3',
    });
    expect(said.filter((line) => line.startsWith('warning:'))).toEqual([
      'warning: svc_api double: setUserToken called before svc_onLoadCallback: the real script loads asynchronously, so svc_api may not exist yet there. Call it from window.svc_onLoadCallback.',
      'warning: svc_api double: chatMode called before svc_onLoadCallback: the real script loads asynchronously, so svc_api may not exist yet there. Call it from window.svc_onLoadCallback.',
    ]);
  });

  it('survives a page callback that throws, and shows it in the console', async () => {
    const said: string[] = [];
    page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
    await load();
    const after = await page.evaluate(() => {
      const w = window as unknown as TestWindow & { svc_onOpen: () => void };
      w.svc_onOpen = () => {
        throw new Error('page bug');
      };
      w.svc_api.open();
      return { state: w.svc_widget.state, issues: w.svc_widget.issues.map((i) => i.code) };
    });
    expect(after).toEqual({ state: 'chat', issues: ['callback_threw'] });
    expect(
      said.some((line) => /^error: svc_api double: svc_onOpen threw: Error: page bug/.test(line)),
    ).toBe(true);
  });
});
