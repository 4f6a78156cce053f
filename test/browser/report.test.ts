/**
 * The HTML report (`svc-cli report`, `replay --report`) in headless Chromium at three widths,
 * light and dark: the lanes, the exchanges and the broken invariants are there and readable.
 * Screenshots (svc-report-<width>.png) go to $SVC_SCREENSHOTS when set (a person looks at them),
 * else to the run's temp folder, removed with it.
 * Skipped when /usr/bin/chromium is missing (.ci/run installs it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium, openFromDisk, REPORT_VIEWS } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConversation } from '../../src/conversation/load.js';
import { conversationSchema } from '../../src/conversation/format.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { writeHtmlReport } from '../../src/cli/commands/report-write.js';
import { repoRoot } from '../helpers/run-cli.js';
import { LATE_HOOK } from '../helpers/late-hook.js';
import { measureLaneHeads, touchingHeads } from '../helpers/lane-heads.js';

const lateHook = conversationSchema.parse(LATE_HOOK);

describe.skipIf(!hasChromium)('the HTML report in headless Chromium', () => {
  let dir: string;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-report-'));
    const recordFile = join(dir, 'session.ndjson');
    const names = new Map<string, string>();
    for (const name of ['transcript-redelivered.json', 'bot-handover-online.json']) {
      const file = join(repoRoot, 'fixtures/conversations', name);
      const r = await replayConversation({
        file,
        conversation: await loadConversation(file),
        recordFile,
      });
      if (r.run) names.set(r.run, r.name);
    }
    const late = await replayConversation({ conversation: lateHook, recordFile });
    expect(late.ok).toBe(false);
    if (late.run) names.set(late.run, late.name);
    const out = join(dir, 'report.html');
    const summary = await writeHtmlReport({
      recording: recordFile,
      out,
      shownOut: 'report.html',
      title: 'svc-cli replay',
      names,
    });
    expect(summary).toEqual({ conversations: 3, exchanges: 18, violations: 1 });
    url = pathToFileURL(out).href;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [width, scheme] of REPORT_VIEWS) {
    it(`shows the lanes, the exchanges and the violation at ${width} px (${scheme})`, async () => {
      // no network: the page must not ask for anything but itself
      const { page, requests } = await openFromDisk(browser, url, width, scheme);
      expect(requests).toEqual([url]);
      const seen = await page.evaluate(() => ({
        conversations: Array.from(document.querySelectorAll('.conv h2')).map(
          (h) => h.textContent ?? '',
        ),
        lanes: Array.from(document.querySelectorAll('.conv:first-of-type .lanes .head span')).map(
          (s) => s.textContent,
        ),
        rows: document.querySelectorAll('.x').length,
        arrows: document.querySelectorAll('.x .arrow').length,
        violations: Array.from(document.querySelectorAll('.violation')).map((v) => ({
          text: v.textContent ?? '',
          color: getComputedStyle(v).color,
          visible: (v as HTMLElement).offsetHeight > 0,
        })),
        marked: document.querySelectorAll('.x.violating').length,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        laneWidths: Array.from(
          document.querySelectorAll('.conv:first-of-type .lanes .head span'),
        ).map((s) => s.getBoundingClientRect().width),
      }));
      expect(seen.conversations).toHaveLength(3);
      expect(seen.conversations[0]).toContain('redelivered agent message');
      expect(seen.lanes).toEqual(['time', 'integrator', 'platform', 'bot', 'hooks', 'widget']);
      expect(seen.rows).toBe(18);
      expect(seen.arrows).toBe(17); // the control request stays in the platform's lane
      expect(seen.violations).toHaveLength(1);
      // counted in words that agree with the count, under the title though written last
      expect(await page.locator('#run-summary').textContent()).toMatch(
        /3 conversations.*18 exchanges.*1 invariant violation$/,
      );
      expect(await page.locator('h1 + p').getAttribute('id')).toBe('run-summary');
      expect(seen.violations[0]!.text).toContain('hook-after-finish (spec 6.2)');
      expect(seen.violations[0]!.visible).toBe(true);
      // red: the red channel dominates
      const [r, g, b] = (seen.violations[0]!.color.match(/\d+/g) ?? []).map(Number);
      expect(r! > g! + 60 && r! > b! + 60, seen.violations[0]!.color).toBe(true);
      expect(seen.marked).toBe(2);
      // nothing wider than the window; every lane keeps some room
      expect(seen.overflow).toBeLessThanOrEqual(0);
      for (const w of seen.laneWidths) expect(w).toBeGreaterThan(width < 500 ? 40 : 80);
      // every lane's name reads whole (no "integr…"), apart from its neighbours, in the page
      const heads = await measureLaneHeads(page, '.conv:first-of-type');
      expect(heads.filter((h) => h.clipped).map((h) => h.text)).toEqual([]);
      expect(touchingHeads(heads)).toEqual([]);
      for (const h of heads) expect(h.right, h.text).toBeLessThanOrEqual(width);
      await page.screenshot({
        path: join(process.env.SVC_SCREENSHOTS ?? dir, `svc-report-${width}.png`),
        fullPage: true,
      });
      await page.close();
    });
  }

  it('filters to the conversations with violations and moves between them with j / k', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    // three sections: the keys have somewhere to go, and the page says so
    expect(await page.locator('#jk').isVisible()).toBe(true);
    await page.check('#only-bad');
    expect(await page.locator('.conv:visible').count()).toBe(1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.id ?? '')).toMatch(/^c-/);
    await page.close();
  });

  it("a violation's exchange link moves the focus to that exchange", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    const link = page.locator('.violation a').first();
    const target = (await link.getAttribute('href'))!.slice(1);
    await link.focus();
    await page.keyboard.press('Enter');
    // a row is laid out with display: contents, which takes no focus: its first cell does
    await page.waitForFunction(
      (id) => document.getElementById(id)?.contains(document.activeElement) === true,
      target,
    );
    await page.close();
  });

  it('the filter says so when nothing is marked, rather than showing a blank page', async () => {
    const recordFile = join(dir, 'clean.ndjson');
    const file = join(repoRoot, 'fixtures/conversations/transcript-redelivered.json');
    await replayConversation({ file, conversation: await loadConversation(file), recordFile });
    const out = join(dir, 'clean.html');
    const clean = await writeHtmlReport({
      recording: recordFile,
      out,
      shownOut: 'clean.html',
      title: 'svc-cli replay',
    });
    expect(clean.violations).toBe(0);
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(pathToFileURL(out).href);
    // one section: j / k have nowhere to move, so no hint of them
    expect(await page.locator('.conv').count()).toBe(1);
    expect(await page.getByText('j / k').isVisible()).toBe(false);
    expect(await page.locator('#none-bad').isVisible()).toBe(false);
    await page.check('#only-bad');
    expect(await page.locator('.conv:visible').count()).toBe(0);
    expect(await page.locator('#none-bad').textContent()).toBe('No conversations with violations.');
    expect(await page.locator('#none-bad').isVisible()).toBe(true);
    await page.uncheck('#only-bad');
    expect(await page.locator('#none-bad').isVisible()).toBe(false);
    await page.close();
  });

  it('the filter hides a heading over runs it hides all of, and says no failed runs', async () => {
    const recordFile = join(dir, 'clean-runs.ndjson');
    const file = join(repoRoot, 'fixtures/conversations/transcript-redelivered.json');
    await replayConversation({ file, conversation: await loadConversation(file), recordFile });
    const out = join(dir, 'clean-runs.html');
    const chatless = (name: string) => ({
      name,
      verdict: 'passed' as const,
      steps: ['✓ 1. GET /_sim/state'],
      why: 'it opened no chat',
    });
    await writeHtmlReport({
      recording: recordFile,
      out,
      shownOut: 'clean-runs.html',
      title: 'svc-cli replay',
      runs: [chatless('status'), chatless('agents-offline')],
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(pathToFileURL(out).href);
    const heading = page.getByRole('heading', { name: '2 runs without a chat to draw' });
    expect(await heading.isVisible()).toBe(true);
    await page.check('#only-bad');
    expect(await heading.isVisible()).toBe(false);
    expect(await page.locator('#none-bad').textContent()).toBe(
      'No failed runs and no conversations with violations.',
    );
    expect(await page.locator('#none-bad').isVisible()).toBe(true);
    await page.uncheck('#only-bad');
    expect(await heading.isVisible()).toBe(true);
    await page.close();
  });

  it('breaks the command line under the title between its words, not inside a flag', async () => {
    const recordFile = join(dir, 'made.ndjson');
    const file = join(repoRoot, 'fixtures/conversations/transcript-redelivered.json');
    await replayConversation({ file, conversation: await loadConversation(file), recordFile });
    const out = join(dir, 'made.html');
    const command =
      "svc-cli conform platform --channel-url 'http://127.0.0.1:8800/***/shop' --wait 10s --hook-listen-port 8900 --report conform.html";
    await writeHtmlReport({
      recording: recordFile,
      out,
      shownOut: 'made.html',
      title: 'svc-cli conform platform',
      made: { command, version: '0.1.0', writtenAt: '2026-12-02T16:05:37.769Z' },
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(pathToFileURL(out).href);
    // the code's text, line by line as laid out (Chromium breaks `--flag` after its first `-`)
    const lines = await page.evaluate(() => {
      const code = document.querySelector('.made code')!;
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      const rows: string[] = [];
      let line = '';
      let top: number | undefined;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node as Text;
        for (let i = 0; i < text.length; i++) {
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          const y = range.getBoundingClientRect().top;
          if (top !== undefined && y > top + 2) rows.push(line);
          if (top === undefined || y > top + 2) line = '';
          top = y;
          line += text.data[i];
        }
      }
      return [...rows, line];
    });
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe(command);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/ $/);
    await page.close();
  });

  it('keeps a --flag whole where a failed step names it, at 390 px', async () => {
    const recordFile = join(dir, 'flag.ndjson');
    const file = join(repoRoot, 'fixtures/conversations/transcript-redelivered.json');
    await replayConversation({ file, conversation: await loadConversation(file), recordFile });
    const out = join(dir, 'flag.html');
    // as conform platform --report writes a broken rule (the flag fell at a line's end)
    const detail =
      'redelivery-id (spec 8): #21 agent.text attempt 2 at +3.027 s carries id 7f1da40e-b9af-4f1b-9dde-2abe63e1cbb8-retry-2; the attempt before, #20 agent.text at +0.058 s, carried 7f1da40e-b9af-4f1b-9dde-2abe63e1cbb8 [exchanges #20 and #21; --no-invariant redelivery-id switches it off]';
    await writeHtmlReport({
      recording: recordFile,
      out,
      shownOut: 'flag.html',
      title: 'svc-cli conform platform',
      runs: [
        {
          name: 'cross-interface invariants',
          verdict: 'failed',
          steps: ['✗ redelivery-id (chat 5)'],
          why: '',
          failures: [{ step: 'redelivery-id (chat 5)', details: [detail] }],
        },
      ],
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(pathToFileURL(out).href);
    const flag = page.locator('li.failure', { hasText: '--no-invariant' });
    // one box: the flag is drawn on a single line
    const boxes = await flag.evaluate((li) => {
      const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf('--no-invariant') ?? -1;
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + '--no-invariant'.length);
        return range.getClientRects().length;
      }
      return 0;
    });
    expect(boxes).toBe(1);
    expect(await flag.textContent()).toContain(detail);
    await page.close();
  });
});
