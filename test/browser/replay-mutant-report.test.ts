/**
 * `replay --mutant transcript-repeats-redelivered --report` in headless Chromium: a failed
 * step's long JSON (what the hook was expected to carry, what it carried) wraps inside its
 * card, so the page is never wider than the window, and a cause link ("← #3") stays on one
 * line; the header names the command line that made it. Screenshots
 * (svc-replay-mutant-report-<width>.png) go to $SVC_SCREENSHOTS when set, else to the run's
 * temp folder, removed with it. Skipped when /usr/bin/chromium is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, openFromDisk, REPORT_VIEWS } from '../helpers/chromium.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { repoRoot } from '../helpers/run-cli.js';
import { readPackageVersion } from '../../src/package-files.js';

describe.skipIf(!hasChromium)('the mutant replay HTML report in Chromium', () => {
  let dir: string;
  let url: string;
  let browser: Browser;
  let code: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-replay-mutant-report-'));
    const t = createTestContext({ cwd: dir });
    code = await runInProcess(t, [
      'replay',
      join(repoRoot, 'fixtures/conversations'),
      '--mutant',
      'transcript-repeats-redelivered',
      '--report',
      'replay-mut.html',
    ]);
    url = pathToFileURL(join(dir, 'replay-mut.html')).href;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the command line with its --mutant, the version and the time under the title', async () => {
    const { page } = await openFromDisk(browser, url, 390, 'light');
    const made = await page.evaluate(() => ({
      command: document.querySelector('.made code')?.textContent ?? '',
      text: document.querySelector('.made')?.textContent ?? '',
      at: document.querySelector('.made time')?.getAttribute('datetime') ?? '',
      title: document.title,
    }));
    await page.close();
    expect(made.command).toBe(
      `svc-cli replay ${join(repoRoot, 'fixtures/conversations')} --mutant transcript-repeats-redelivered --report replay-mut.html`,
    );
    expect(made.text).toContain(`svc-cli ${readPackageVersion()}`);
    expect(Number.isNaN(Date.parse(made.at))).toBe(false);
    expect(made.title).toBe('svc-cli replay');
  });

  for (const [width, scheme] of REPORT_VIEWS) {
    it(`keeps the failed step's JSON and the cause links inside ${width} px (${scheme})`, async () => {
      expect(code).toBe(1);
      const { page } = await openFromDisk(browser, url, width, scheme);
      const seen = await page.evaluate(() => {
        const failure = document.querySelector('.violation.failure');
        const card = failure?.closest('.conv')?.getBoundingClientRect();
        return {
          step: failure?.querySelector('b')?.textContent ?? '',
          scrollWidth: document.documentElement.scrollWidth,
          failureRight: failure?.getBoundingClientRect().right ?? Infinity,
          cardRight: card?.right ?? -Infinity,
          causes: document.querySelectorAll('a.cause').length,
          // "← #3" on two lines has two rects at different heights
          brokenCauses: Array.from(document.querySelectorAll('a.cause'))
            .filter((a) => new Set(Array.from(a.getClientRects(), (r) => r.top)).size > 1)
            .map((a) => a.textContent),
        };
      });
      expect(seen.step).toMatch(/expect hook chat_finished/);
      expect(seen.scrollWidth).toBeLessThanOrEqual(width);
      expect(seen.failureRight).toBeLessThanOrEqual(seen.cardRight);
      expect(seen.causes).toBeGreaterThan(0);
      expect(seen.brokenCauses).toEqual([]);
      await page.screenshot({
        path: join(process.env.SVC_SCREENSHOTS ?? dir, `svc-replay-mutant-report-${width}.png`),
        fullPage: true,
      });
      await page.close();
    });
  }
});
