/**
 * `conform platform --report` in headless Chromium at three widths: the same report renderer
 * as replay's, over what the conform run saw of its chats (the customer's messages, the agent's
 * deliveries with their redelivery, the platform's hooks, the page's callbacks), with the invariant the planted bug
 * broke in red. Screenshots (svc-conform-report-<width>.png) go to $SVC_SCREENSHOTS when set,
 * else to the run's temp folder, removed with it. Skipped when /usr/bin/chromium is missing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium, openFromDisk, REPORT_VIEWS } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { freePort } from '../helpers/free-port.js';
import { agentLinesTwice, startHookRelay, type HookRelay } from '../helpers/hook-relay.js';

describe.skipIf(!hasChromium)('the conform platform HTML report in Chromium', () => {
  let dir: string;
  let url: string;
  let browser: Browser;
  let platform: Platform;
  let relay: HookRelay;
  let stdout = '';
  let code: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-conform-report-'));
    // the peer: svc-cli's platform, its hooks through a relay that logs each agent line twice
    const hookPort = await freePort();
    relay = await startHookRelay(() => `http://127.0.0.1:${hookPort}/hooks`, agentLinesTwice);
    platform = createPlatform({
      clock: createClock({ timeScale: 0.5 }),
      channels: [{ id: 'shop' }],
      hooks: { url: relay.url },
    });
    await platform.listen({ port: 0 });
    const channel = [...platform.core.state.channels.values()][0]!;
    const t = createTestContext({ cwd: dir });
    code = await runInProcess(t, [
      '--time-scale',
      '0.5',
      'conform',
      'platform',
      '--channel-url',
      platform.core.channelInfo(channel).url,
      '--hook-listen-port',
      String(hookPort),
      '--record',
      'seen.ndjson',
      '--report',
      'report.html',
    ]);
    stdout = t.stdout() + t.stderr();
    url = pathToFileURL(join(dir, 'report.html')).href;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await relay?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the run on the broken invariant and says where the report went', () => {
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /HTML report written to report\.html: 1 failed, 5 conversations, 1 invariant violation/,
    );
    // the recording keeps the channel's random string out (spec 5.1)
    const channel = [...platform.core.state.channels.values()][0]!;
    const random = new URL(platform.core.channelInfo(channel).url).pathname.split('/')[1]!;
    expect(readFileSync(join(dir, 'seen.ndjson'), 'utf8')).not.toContain(random.slice(0, -1));
  });

  it('counts the cases as the terminal does and lists the passed ones, folded', async () => {
    const counts = stdout.match(/^(\d+) passed, (\d+) failed, (\d+) skipped$/m);
    expect(counts, stdout).not.toBeNull();
    const { page } = await openFromDisk(browser, url, 1280, 'light');
    const seen = await page.evaluate(() => ({
      // the header's counts, as the page shows them under the title
      summary: Array.from(document.querySelectorAll('#run-summary span')).map(
        (s) => s.textContent ?? '',
      ),
      folded: document.querySelector('details.folded > summary')?.textContent ?? '',
      open: document.querySelector('details.folded')?.hasAttribute('open'),
      passedCases: document.querySelectorAll('details.folded .conv.run').length,
    }));
    await page.close();
    const [, passed, failed, skipped] = counts!;
    expect(seen.summary.slice(0, 3)).toEqual([
      `${passed} passed`,
      `${failed} failed`,
      `${skipped} skipped`,
    ]);
    expect(Number(passed)).toBeGreaterThan(0);
    expect(seen.folded).toBe(`${passed} passed ${Number(passed) === 1 ? 'case' : 'cases'}`);
    expect(seen.open).toBe(false);
    expect(seen.passedCases).toBe(Number(passed) + Number(skipped));
  });

  for (const [width, scheme] of REPORT_VIEWS) {
    it(`shows the lanes and the transcript violation at ${width} px (${scheme})`, async () => {
      const { page, requests } = await openFromDisk(browser, url, width, scheme);
      expect(requests).toEqual([url]);
      const seen = await page.evaluate(() => ({
        title: document.querySelector('h1')?.textContent ?? '',
        conversations: document.querySelectorAll('.conv:not(.run)').length,
        // the failed case (the invariants' own), listed first with its failed step
        failedRuns: Array.from(document.querySelectorAll('.conv.run.has-bad')).map(
          (r) => r.textContent ?? '',
        ),
        lanes: Array.from(
          document.querySelector('.conv:not(.run) .lanes .head')?.querySelectorAll('span') ?? [],
        ).map((s) => s.textContent),
        lanesUsed: Array.from(
          new Set(
            Array.from(document.querySelectorAll('.x')).map((x) => (x as HTMLElement).dataset.lane),
          ),
        ),
        failedAttempts: document.querySelectorAll('.x.failed .arrow').length,
        violations: Array.from(document.querySelectorAll('.violation:not(.failure)')).map((v) => ({
          text: v.textContent ?? '',
          color: getComputedStyle(v).color,
          visible: (v as HTMLElement).offsetHeight > 0,
        })),
        marked: document.querySelectorAll('.x.violating').length,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
      }));
      expect(seen.title).toBe('svc-cli conform platform');
      expect(seen.conversations).toBe(5);
      expect(seen.failedRuns).toHaveLength(1);
      expect(seen.failedRuns[0]).toMatch(/cross-interface invariants/);
      expect(seen.lanes).toEqual(['time', 'integrator', 'platform', 'bot', 'hooks', 'widget']);
      // the page case's visitor: its events and callback reports in the widget lane
      expect(seen.lanesUsed.sort()).toEqual(['hooks', 'integrator', 'widget']);
      expect(seen.failedAttempts).toBe(2); // the redelivery case's two refused attempts
      expect(seen.violations).toHaveLength(1);
      expect(seen.violations[0]!.text).toMatch(
        /^transcript \(spec 2\.6\): chat_finished #\d+ .* logs the agent message #\d+ .*"Redelivery check" 2 times; it was sent once/,
      );
      expect(seen.violations[0]!.visible).toBe(true);
      const [r, g, b] = (seen.violations[0]!.color.match(/\d+/g) ?? []).map(Number);
      expect(r! > g! + 60 && r! > b! + 60, seen.violations[0]!.color).toBe(true);
      expect(seen.marked).toBe(2); // the agent message and chat_finished
      expect(seen.overflow).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: join(process.env.SVC_SCREENSHOTS ?? dir, `svc-conform-report-${width}.png`),
        fullPage: true,
      });
      await page.close();
    });
  }
});
