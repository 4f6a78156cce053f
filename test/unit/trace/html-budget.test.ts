/**
 * The HTML report's draw budget: a long conversation is drawn in part (first and last
 * exchanges, and every exchange a violation names) and past the report's row budget the
 * conversations without violations are listed, one line each, so a 100k-exchange run's report
 * stays a file a browser opens (issue "Cost": < 20 MB, bench/trace.js prints the figures).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { writeHtmlReport } from '../../../src/cli/commands/report-write.js';
import { reportSection } from '../../../src/trace/html.js';
import type { TracedConversation } from '../../../src/trace/read.js';
import type { TraceSpan } from '../../../src/trace/span.js';
import type { Violation } from '../../../src/trace/invariants.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const span = (seq: number): TraceSpan => ({
  run: 'r1',
  seq,
  chat: 1,
  lane: 'integrator',
  iface: 'channel',
  direction: 'in',
  kind: 'channel.customer.text',
  name: 'customer.text',
  startMs: seq * 10,
  endMs: seq * 10 + 1,
  wallStartMs: 0,
  status: 200,
  path: '/ch',
});

const rowsOf = (html: string): number[] =>
  [...html.matchAll(/data-seq="(\d+)"/g)].map((m) => Number(m[1]));

describe('reportSection draw budget', () => {
  const c: TracedConversation = {
    run: 'r1',
    chat: 1,
    spans: Array.from({ length: 300 }, (_, i) => span(i + 1)),
    dropped: 0,
  };

  it('draws every exchange under the budget', () => {
    expect(rowsOf(reportSection(c, [], undefined, 300))).toHaveLength(300);
    expect(rowsOf(reportSection(c, []))).toHaveLength(300);
  });

  it('draws the first three quarters and the last quarter of the budget, and says what it left out', () => {
    const html = reportSection(c, [], undefined, 200);
    const rows = rowsOf(html);
    expect(rows).toHaveLength(200);
    expect(rows.slice(0, 3)).toEqual([1, 2, 3]);
    expect(rows[149]).toBe(150);
    expect(rows[150]).toBe(251);
    expect(rows.at(-1)).toBe(300);
    expect(html).toContain('100 exchanges not drawn (#151 to #250)');
    expect(html).toContain('--chat 1</code> draws them all');
    // the heading still counts them all
    expect(html).toContain('300 exchanges');
  });

  it('names the recording `report` read in the --chat that draws them, a placeholder elsewhere', () => {
    // a replay's or the console's page was drawn from a run: no file to name
    expect(reportSection(c, [], undefined, 200)).toContain(
      '<code>svc-cli report &lt;recording&gt; --chat 1</code>',
    );
    const page = (recording: string) =>
      reportSection(c, [], undefined, 200, false, {}, { judged: true, recording });
    expect(page('session.ndjson')).toContain('<code>svc-cli report session.ndjson --chat 1</code>');
    // quoted as a shell takes it
    expect(page('my run.ndjson')).toContain(
      '<code>svc-cli report &#39;my run.ndjson&#39; --chat 1</code>',
    );
    expect(page('stdin')).toContain('<code>svc-cli report &lt;recording&gt; --chat 1</code>');
  });

  it('keeps the exchanges a violation names, whatever the budget', () => {
    const v: Violation = {
      rule: 'hook-after-finish',
      spec: '6.2',
      run: 'r1',
      chat: 1,
      message: 'late',
      exchanges: [160, 200],
    };
    const html = reportSection(c, [v], undefined, 200);
    const rows = rowsOf(html);
    expect(rows).toContain(160);
    expect(rows).toContain(200);
    expect(html).toContain('9 exchanges not drawn (#151 to #159)');
    expect(html).toContain('39 exchanges not drawn (#161 to #199)');
    expect(html.match(/class="x violating"/g)).toHaveLength(2);
  });
});

describe('writeHtmlReport draw budget', () => {
  function recording(chats: number, perChat: number): string {
    const dir = mkdtempSync(join(tmpdir(), 'svc-html-budget-'));
    dirs.push(dir);
    const lines: string[] = [];
    let seq = 0;
    for (let chat = 1; chat <= chats; chat++)
      for (let i = 0; i < perChat; i++) {
        seq++;
        const r: ExchangeRecord = {
          type: 'exchange',
          seq,
          run: 'r1',
          at: new Date(1_700_000_000_000 + seq).toISOString(),
          protocolMs: seq,
          iface: 'channel',
          direction: 'in',
          kind: 'channel.customer.text',
          chat,
          request: {
            method: 'POST',
            url: 'http://p.test/ch',
            body: JSON.stringify({
              sender: { id: `c-${chat}` },
              message: { type: 'text', text: 'hi' },
            }),
          },
          response: { status: 200, body: '{"result":"ok"}' },
        };
        lines.push(JSON.stringify(r));
      }
    const file = join(dir, 'j.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it("report's page names its recording in the --chat of a conversation drawn in part", async () => {
    const file = recording(1, 12);
    const out = `${file}.html`;
    await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      requireRecords: 'j.ndjson',
      budget: { rowsPerConversation: 8 },
    });
    expect(readFileSync(out, 'utf8')).toContain(
      '4 exchanges not drawn (#7 to #10): <code>svc-cli report j.ndjson --chat 1</code>',
    );
  });

  it("report's page names its recording in the hints for the conversations it left out", async () => {
    const file = recording(5, 6);
    const page = async (requireRecords: string | undefined): Promise<string> => {
      const out = `${file}.${requireRecords ?? 'run'}.html`;
      await writeHtmlReport({
        recording: file,
        out,
        shownOut: 'r.html',
        title: 't',
        ...(requireRecords === undefined ? {} : { requireRecords }),
        limits: { maxSpans: 4 },
        budget: { rows: 8, listed: 1 },
      });
      return readFileSync(out, 'utf8');
    };
    const named = await page('my run.ndjson');
    // quoted as a shell takes it
    const arg = '&#39;my run.ndjson&#39;';
    expect(named).toContain(`<code>svc-cli trace ${arg} --chat 1</code> counts them too`);
    expect(named).toContain(`<code>svc-cli report ${arg} --chat &lt;id&gt;</code> draws one.`);
    expect(named).toContain(`<code>svc-cli trace ${arg}</code> prints every one`);
    // a page drawn from a run or from stdin has no file to name
    for (const html of [await page(undefined), await page('stdin')]) {
      expect(html).toContain('<code>svc-cli trace &lt;recording&gt; --chat 1</code>');
      expect(html).toContain('<code>svc-cli report &lt;recording&gt; --chat &lt;id&gt;</code>');
      expect(html).toContain('<code>svc-cli trace &lt;recording&gt;</code> prints every one');
    }
  });

  it('lists the conversations past the row budget, one line each', async () => {
    const file = recording(5, 4);
    const out = `${file}.html`;
    const summary = await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      budget: { rows: 8 },
    });
    expect(summary).toEqual({ conversations: 5, exchanges: 20, violations: 0 });
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<section class="conv/g)).toHaveLength(2);
    expect(html.match(/<p class="brief group"/g)).toHaveLength(3);
    expect(html).toContain('The first 2 conversations are drawn');
    expect(html).toContain('chat 5 · run r1 · 4 exchanges');
    // past the listed budget they are counted
    const counted = `${file}.counted.html`;
    await writeHtmlReport({
      recording: file,
      out: counted,
      shownOut: 'r.html',
      title: 't',
      budget: { rows: 8, listed: 1 },
    });
    const short = readFileSync(counted, 'utf8');
    expect(short.match(/<p class="brief group" id=/g)).toHaveLength(1);
    expect(short).toContain('and 2 more conversations without violations, not listed');
  });

  it('says how many exchanges past the per-conversation cap were not kept, as trace does', async () => {
    const file = recording(2, 6);
    const out = `${file}.html`;
    const summary = await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'r.html',
      title: 't',
      limits: { maxSpans: 4 },
    });
    expect(summary).toEqual({ conversations: 2, exchanges: 8, violations: 0, notKept: 4 });
    const html = readFileSync(out, 'utf8');
    // each heading, the line under its timeline and the page's summary
    expect(html.match(/4 exchanges \(2 more not kept\)/g)).toHaveLength(2);
    expect(html).toContain(
      '2 more exchanges not kept: a conversation keeps its first 4, so they are not in this report',
    );
    expect(html).toContain('<b>8</b> exchanges (4 more not kept)</span>');
    // listed past the row budget: the line says it too
    const listed = `${file}.listed.html`;
    await writeHtmlReport({
      recording: file,
      out: listed,
      shownOut: 'r.html',
      title: 't',
      limits: { maxSpans: 4 },
      budget: { rows: 1 },
    });
    expect(readFileSync(listed, 'utf8')).toContain(
      'chat 2 · run r1 · 4 exchanges (2 more not kept)',
    );
    // under the cap: no such words
    const whole = `${file}.whole.html`;
    await writeHtmlReport({ recording: file, out: whole, shownOut: 'r.html', title: 't' });
    expect(readFileSync(whole, 'utf8')).not.toContain('not kept');
  });

  it('draws every exchange of the one conversation --chat names', async () => {
    const file = recording(2, 300);
    const out = `${file}.html`;
    await writeHtmlReport({ recording: file, out, shownOut: 'r.html', title: 't', chat: 2 });
    expect(rowsOf(readFileSync(out, 'utf8'))).toHaveLength(300);
    const all = `${file}.all.html`;
    await writeHtmlReport({ recording: file, out: all, shownOut: 'r.html', title: 't' });
    expect(rowsOf(readFileSync(all, 'utf8'))).toHaveLength(400);
  });
});
