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
import type { Browser } from 'playwright-core';
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
});
