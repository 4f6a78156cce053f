/**
 * `load --report`'s sampled journal (src/load/trace.ts) and its page: the first conversations
 * recorded and the rest only counted, the file capped, load channel recorded as the platform
 * served it, and a broken invariant among the sampled exchanges drawn in red beside the run's
 * own section (src/cli/commands/report-write.ts with a lead).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeHtmlReport } from '../../../src/cli/commands/report-write.js';
import { sampleNote } from '../../../src/cli/render/load-report.js';
import { recordExchange } from '../../../src/journal/index.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { createLoadTrace } from '../../../src/load/trace.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-load-trace-'));
  dirs.push(dir);
  return dir;
};
const lines = (file: string): ExchangeRecord[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExchangeRecord);

const agentText = (id: string): string =>
  JSON.stringify({
    sender: { name: 'Agent' },
    recipient: { id: 'c-1' },
    message: { type: 'text', text: 'Your order ships today.', id },
  });

describe('the sampled journal of a load run', () => {
  it('records the first conversations, counts the rest, and stops at its cap', () => {
    const file = join(scratch(), 'load.ndjson');
    const trace = createLoadTrace({ file, conversations: 2, maxRecords: 3 });
    const body = agentText('m-1');
    const first = trace.series(0, 1, body);
    expect(first).toMatchObject({ chat: 1, kind: 'channel.agent.text' });
    expect(trace.series(2, 3, body)).toBeUndefined(); // past the sample: counted only
    for (const n of [1, 2, 3])
      recordExchange(first!.journal, {
        protocolMs: n,
        iface: 'channel',
        direction: 'out',
        request: { method: 'POST', url: 'http://x/load', body },
      });
    expect(trace.series(1, 2, body)).toBeUndefined(); // the file is full
    trace.close();
    expect(trace.figures).toEqual({ conversations: 3, sampled: 2, records: 3, capped: 1 });
    expect(lines(file)).toHaveLength(3);
    expect(sampleNote(trace.figures)).toContain(
      "a sample: the first 2 of the run's 3 conversations, 3 exchanges",
    );
    expect(sampleNote(trace.figures)).toContain('The recording stopped at 3 exchanges');
    // the page's counts at the top are the sample's, not the run's
    expect(sampleNote(trace.figures)).toContain(
      "3 exchanges of these 2 (the counts at the top are the sample's; the run's own are in the section above)",
    );
  });

  it('records what load channel sent as the platform served it', () => {
    const file = join(scratch(), 'load.ndjson');
    const trace = createLoadTrace({ file, inbound: true });
    const body = JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } });
    const series = trace.series(0, 1, body)!;
    recordExchange(series.journal, {
      protocolMs: 500,
      durationMs: 40,
      iface: 'channel',
      direction: 'out',
      chat: series.chat,
      request: { method: 'POST', url: 'http://x/r/c', body },
      response: { status: 200 },
    });
    trace.close();
    expect(lines(file)[0]).toMatchObject({ direction: 'in', protocolMs: 460, chat: 1 });
  });

  it('draws a broken invariant of a sampled conversation in red after the run', async () => {
    const dir = scratch();
    const file = join(dir, 'load.ndjson');
    const trace = createLoadTrace({ file });
    const series = trace.series(0, 7, agentText('m-1'))!;
    const attempt = (n: number, id: string, cause?: number) =>
      recordExchange(series.journal, {
        protocolMs: n * 3000,
        durationMs: 5,
        iface: 'channel',
        direction: 'out',
        kind: 'channel.agent.text',
        attempt: n,
        chat: series.chat,
        ...(cause === undefined ? {} : { cause }),
        request: { method: 'POST', url: 'http://x/load', body: agentText(id) },
        response: { status: n === 1 ? 500 : 200 },
        notes: [n === 1 ? 'rejected: HTTP 500' : 'accepted'],
      });
    const one = attempt(1, 'm-1');
    attempt(2, 'm-1-changed', one); // a redelivery under another id (spec 8)
    trace.close();
    const out = join(dir, 'load.html');
    const summary = await writeHtmlReport({
      recording: file,
      out,
      shownOut: 'load.html',
      title: 'svc-cli load integrator',
      filter: 'only sections with broken thresholds or violations',
      lead: `<section class="conv" id="load">the run</section>${sampleNote(trace.figures)}`,
    });
    expect(summary).toMatchObject({ conversations: 1, exchanges: 2, violations: 1 });
    const html = readFileSync(out, 'utf8');
    expect(html.indexOf('id="load"')).toBeLessThan(
      html.indexOf('Lanes of the one conversation of the run'),
    );
    expect(html).toContain('only sections with broken thresholds or violations');
    expect(html).toMatch(/<li class="violation" data-rule="redelivery-id">.*m-1-changed/);
    expect(html.match(/data-lane="integrator"/g)).toHaveLength(2);
  });
});
