/**
 * A run that failed draws a red page: its failed steps and their reasons beside its chats
 * (replay) or first on the page (conform's cases), even when every invariant holds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { writeHtmlReport } from '../../../src/cli/commands/report-write.js';
import type { ReportRun } from '../../../src/trace/html.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One customer message of chat 1 in run `r1`. */
function recording(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-html-failed-'));
  dirs.push(dir);
  const r: ExchangeRecord = {
    type: 'exchange',
    seq: 1,
    run: 'r1',
    at: new Date(1_700_000_000_000).toISOString(),
    protocolMs: 0,
    iface: 'channel',
    direction: 'in',
    kind: 'channel.customer.text',
    chat: 1,
    request: {
      method: 'POST',
      url: 'http://p.test/ch',
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    },
    response: { status: 200, body: '{"result":"ok"}' },
  };
  const file = join(dir, 'j.ndjson');
  writeFileSync(file, `${JSON.stringify(r)}\n`);
  return file;
}

const failedRun: ReportRun = {
  run: 'r1',
  name: 'cut text',
  verdict: 'failed',
  steps: ['✓ 1. customer says "hi"', '✗ delivered cut to 1000 code points'],
  why: 'its chats are drawn below',
  failures: [
    {
      step: 'delivered cut to 1000 code points',
      details: ['message.text: delivered 999 code points; expected the first 1000 (spec 2.1, 8)'],
    },
  ],
};

describe('writeHtmlReport of a failed run', () => {
  it('puts the failed steps on the run’s chat and counts the run as failed', async () => {
    const file = recording();
    const out = `${file}.html`;
    const summary = await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      names: new Map([['r1', 'cut text']]),
      runs: [failedRun],
    });
    expect(summary).toEqual({
      conversations: 1,
      exchanges: 1,
      violations: 0,
      passed: 0,
      failed: 1,
      skipped: 0,
    });
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<section class="conv has-bad" id="c-r1-1"');
    expect(html).toContain(
      '<span class="badge bad">failed</span> <span class="badge">invariants hold</span>',
    );
    expect(html).toContain(
      '<b>✗ delivered cut to 1000 code points</b><br>message.text: delivered 999 code points; expected the first 1000 (spec 2.1, 8)',
    );
    expect(html).toContain('only failed runs and conversations with violations');
    // the count takes the reader to the failure (the page's script focuses it)
    expect(html).toContain(
      '<span><a class="to-bad" href="#"><b class="bad">1</b> failed</a></span>',
    );
  });

  it("draws a failed run's chats first, whatever the order its runs were given in", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-html-failed-'));
    dirs.push(dir);
    const one = readFileSync(recording(), 'utf8');
    const file = join(dir, 'two.ndjson');
    // run r0 passed, r1 failed; replay gives them in that order
    writeFileSync(file, one.replaceAll('"r1"', '"r0"') + one);
    const out = `${file}.html`;
    await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      order: ['r0', 'r1'],
      names: new Map([
        ['r0', 'greeting'],
        ['r1', 'cut text'],
      ]),
      runs: [{ run: 'r0', name: 'greeting', verdict: 'passed', steps: [], why: '' }, failedRun],
    });
    const html = readFileSync(out, 'utf8');
    expect(html.indexOf('id="c-r1-1"')).toBeGreaterThan(0);
    expect(html.indexOf('id="c-r1-1"')).toBeLessThan(html.indexOf('id="c-r0-1"'));
  });

  it('says on the page how many lines of the recording were skipped, as the terminal does', async () => {
    const file = recording();
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"exchange","seq":2,"ru`);
    const out = `${file}.html`;
    const summary = await writeHtmlReport({ recording: file, out, shownOut: 'r.html', title: 't' });
    expect(summary.skippedLines).toBe(1);
    expect(readFileSync(out, 'utf8')).toContain(
      '<span><b class="bad">1</b> line of the recording not a journal record (skipped: a cut or damaged file)</span>',
    );
  });

  it('lists failed cases first, with what failed (conform)', async () => {
    const file = recording();
    const out = `${file}.html`;
    const { run: _run, ...unrun } = failedRun;
    const passed: ReportRun = { name: 'status', verdict: 'passed', steps: ['✓ status'], why: '' };
    const summary = await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      cases: [passed, unrun],
      runNoun: 'case',
    });
    expect(summary.failed).toBe(1);
    const html = readFileSync(out, 'utf8');
    const heading = html.indexOf('<h3>1 failed case</h3>');
    expect(heading).toBeGreaterThan(0);
    expect(html.indexOf('cut text · <b class="bad">failed</b>')).toBeGreaterThan(heading);
    expect(html.indexOf('cut text · <b class="bad">failed</b>')).toBeLessThan(
      html.indexOf('id="c-r1-1"'),
    );
    // a passed case is listed too, folded after the failed ones, and counted as passed
    expect(summary).toMatchObject({ passed: 1, failed: 1, skipped: 0 });
    const folded = html.indexOf('<details class="folded group"><summary>1 passed case</summary>');
    expect(folded).toBeGreaterThan(html.indexOf('cut text · <b class="bad">failed</b>'));
    expect(html.indexOf('status · <b class="">passed</b>')).toBeGreaterThan(folded);
    expect(html).toContain(
      '<p class="summary" id="run-summary"><span><b>1</b> passed</span><span><a class="to-bad" href="#"><b class="bad">1</b> failed</a></span><span><b>0</b> skipped</span>',
    );
    // the chat itself is not marked: conform's cases are not split by chat
    expect(html).toContain('<section class="conv" id="c-r1-1"');
  });

  it('lists a case’s steps only when they say more than its failures (conform)', async () => {
    const file = recording();
    const out = `${file}.html`;
    const { run: _run, ...unrun } = failedRun;
    const invariants: ReportRun = {
      name: 'cross-interface invariants',
      verdict: 'failed',
      steps: ['✗ transcript (chat 5)'],
      why: 'the chats it opened are drawn below',
      failures: [
        { step: 'transcript (chat 5)', details: ['transcript (spec 2.6): logged 3 times'] },
      ],
    };
    await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      cases: [invariants, unrun],
      runNoun: 'case',
    });
    const html = readFileSync(out, 'utf8');
    // the one failed step is told once, with its reason, not again as a bare line
    expect(html.match(/transcript \(chat 5\)/g)).toHaveLength(1);
    // a case with a step that passed keeps its list: it tells how far the case got
    expect(html).toContain('<ul class="steps"><li>✓ 1. customer says &#34;hi&#34;</li>');
  });

  it('draws a run cut short mid-chat once, with its chat, and counts it as interrupted', async () => {
    const file = recording();
    const out = `${file}.html`;
    const interrupted = (run: string | undefined, name: string): ReportRun => ({
      ...(run === undefined ? {} : { run }),
      name,
      verdict: 'interrupted',
      steps: [],
      why: 'interrupted before it finished: it opened no chat before it was stopped',
      interrupted: 'interrupted before it finished',
    });
    const summary = await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      names: new Map([['r1', 'text both ways']]),
      order: ['r1', 'r2'],
      runs: [interrupted('r1', 'text both ways'), interrupted('r2', 'typing')],
    });
    // one chat drawn, one run listed without: two runs, each interrupted once
    expect(summary).toEqual({
      conversations: 1,
      exchanges: 1,
      violations: 0,
      passed: 0,
      skipped: 0,
      interrupted: 2,
      runs: 1,
    });
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<section /g)).toHaveLength(2);
    expect(html).toContain('<section class="conv has-bad" id="c-r1-1"');
    expect(html).toContain(
      '<span class="badge bad">interrupted</span> <span class="badge">invariants hold</span>',
    );
    expect(html).toContain(
      '<li class="violation interrupted">interrupted before it finished: what it exchanged until then is drawn below</li>',
    );
    expect(html).not.toContain('text both ways · <b class="bad">interrupted</b>');
    expect(html).toContain('<h3 class="group has-bad">1 run without a chat to draw</h3>');
    expect(html).toContain('typing · <b class="bad">interrupted</b>');
    expect(html).toContain(
      '<p class="summary" id="run-summary"><span><b>0</b> passed</span><span><b>0</b> failed</span><span><b>0</b> skipped</span><span><b class="bad">2</b> interrupted</span><span><b>1</b> conversation</span>',
    );
  });

  it("calls conform's interrupted cases cases, as its terminal note does", async () => {
    const out = `${recording()}.html`;
    const cut = (name: string): ReportRun => ({
      name,
      verdict: 'interrupted',
      steps: [],
      why: 'interrupted before it finished',
      interrupted: 'interrupted before it finished',
    });
    await writeHtmlReport({
      recording: [],
      out,
      shownOut: 'r.html',
      title: 'svc-cli conform platform',
      runs: [cut('redelivery'), cut('typing')],
      runNoun: 'case',
    });
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<h3 class="group has-bad">2 cases without a chat to draw</h3>');
    expect(html).toContain('<span><b>2</b> cases without a chat</span>');
    expect(html).not.toContain('runs without');
  });

  it('draws a page without failures as before', async () => {
    const file = recording();
    const out = `${file}.html`;
    const summary = await writeHtmlReport({ recording: file, out, shownOut: 'r.html', title: 't' });
    expect(summary).toEqual({ conversations: 1, exchanges: 1, violations: 0 });
    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain('<span class="badge bad">failed</span>');
    expect(html).not.toContain('failed case');
    expect(html).toContain('only conversations with violations');
  });
});
