/**
 * `mutate --report` in headless Chromium at 390 px: the cards list survivors first, then the
 * kills, then the mutants never exercised, so a long grey tail cannot bury a red survivor;
 * the first card on screen is a survivor and the page is never wider than the window.
 * Screenshots (svc-mutate-report-<width>.png) go to $SVC_SCREENSHOTS when set, else to the
 * run's temp folder, removed with it. Skipped when /usr/bin/chromium is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, openFromDisk } from '../helpers/chromium.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { repoRoot } from '../helpers/run-cli.js';

describe.skipIf(!hasChromium)('the mutate HTML report in Chromium', () => {
  let dir: string;
  let url: string;
  let browser: Browser;
  let code: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-mutate-report-'));
    const fixture = join(repoRoot, 'fixtures/conversations/redelivery-recovered.json');
    const record = createTestContext({ cwd: dir });
    expect(await runInProcess(record, ['replay', '--record', 'run.ndjson', fixture])).toBe(0);
    const t = createTestContext({ cwd: dir });
    // in catalogue order: killed, killed, never exercised, survived, never exercised
    code = await runInProcess(t, [
      'mutate',
      '--only',
      'redeliver-early,skip-third-attempt,extra-attempt,no-redelivery,drop-agent-typing',
      '--coverage',
      'run.ndjson',
      '--report',
      'mutants.html',
      '--',
      process.execPath,
      '-e',
      'process.exit(["redeliver-early", "skip-third-attempt"].includes(process.env.SVC_MUTANT) ? 1 : 0)',
      // a test filter as a user quotes it: one argument, to be read as one on every width
      '--',
      '--grep',
      'agent sees an error after 3 attempts',
    ]);
    expect(code, t.stderr()).toBe(0);
    url = pathToFileURL(join(dir, 'mutants.html')).href;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the survivor first, then the kills, then the unrun, inside 390 px', async () => {
    const width = 390;
    const { page } = await openFromDisk(browser, url, width, 'light');
    const seen = await page.evaluate(() => ({
      cards: Array.from(document.querySelectorAll('section.mutant'), (s) => [
        s.id.replace(/^mutant-/, ''),
        s.getAttribute('data-outcome'),
      ]),
      firstTop: document.querySelector('section.mutant')?.getBoundingClientRect().top ?? Infinity,
      scrollWidth: document.documentElement.scrollWidth,
    }));
    expect(seen.cards).toEqual([
      ['no-redelivery', 'survived'],
      ['redeliver-early', 'killed'],
      ['skip-third-attempt', 'killed'],
      ['extra-attempt', 'not-exercised'],
      ['drop-agent-typing', 'not-exercised'],
    ]);
    // the survivor is on the first screen of a phone
    expect(seen.firstTop).toBeLessThan(900);
    expect(seen.scrollWidth).toBeLessThanOrEqual(width);
    await page.screenshot({
      path: join(process.env.SVC_SCREENSHOTS ?? dir, `svc-mutate-report-${width}.png`),
      fullPage: true,
    });
    await page.close();
  });

  const views = [1280, 800, 390].flatMap((w) => [[w, 'light'] as const, [w, 'dark'] as const]);
  it.each(views)(
    'breaks the command line between arguments at %i px (%s), a quoted one kept whole',
    async (width, scheme) => {
      const { page } = await openFromDisk(browser, url, width, scheme);
      const { text, args } = await commandLayout(page);
      expect(text).toContain("--grep 'agent sees an error after 3 attempts'");
      const quoted = args.filter((a) => a.text.startsWith("'"));
      expect(quoted.map((a) => a.text)).toHaveLength(2);
      for (const arg of args) {
        // an argument that fits on a line is on one line; only a longer one breaks inside
        if (arg.fits) expect(arg.lines, `${arg.text} at ${width} px`).toBe(1);
      }
      // the quoted test filter fits a phone's line: on one line at every width
      expect(quoted[1]).toMatchObject({ fits: true, lines: 1 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await page.locator('.made').screenshot({
        path: join(process.env.SVC_SCREENSHOTS ?? dir, `svc-mutate-made-${width}-${scheme}.png`),
      });
      await page.close();
    },
  );
});

/** One argument of the command line under the title: how many lines it spans, and whether it fits on one. */
interface ArgLayout {
  text: string;
  lines: number;
  fits: boolean;
}

/**
 * The command line under the title, read back from the page: its text and each shell
 * argument in it (bare or '...' quoted), with the lines its characters are laid out on.
 */
async function commandLayout(page: Page): Promise<{ text: string; args: ArgLayout[] }> {
  return page.evaluate(() => {
    const code = document.querySelector('.made code')!;
    const text = code.textContent ?? '';
    // the top of each character, in the order of the text
    const tops: number[] = [];
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const t = node as Text;
      for (let i = 0; i < t.length; i++) {
        range.setStart(t, i);
        range.setEnd(t, i + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
    }
    // an argument's width set on one line in the code's font
    // (the line's width read first: the probe, wider than it, widens the code box)
    const line = code.clientWidth;
    const probe = document.createElement('span');
    probe.style.whiteSpace = 'pre';
    code.append(probe);
    const args = Array.from(text.matchAll(/(?:[^\s'\\]+|\\[\s\S]?|'[^']*'?)+/g), (m) => {
      probe.textContent = m[0];
      const width = probe.getBoundingClientRect().width;
      const at = tops.slice(m.index, m.index + m[0].length);
      return { text: m[0], lines: new Set(at).size, fits: width <= line };
    });
    probe.remove();
    return { text, args };
  });
}
