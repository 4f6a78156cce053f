import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJournal, createRedactor, type ExchangeInput } from '../../src/journal/index.js';

const exchange = (n: number): ExchangeInput => ({
  protocolMs: n,
  iface: 'channel',
  direction: 'in',
  kind: 'channel.agent.text',
  attempt: n,
  request: { method: 'POST', url: 'http://127.0.0.1/ch-1', body: `{"n":${n},"line":"a\\nb"}` },
  response: { status: 200, body: '{"result":"ok"}' },
  durationMs: 1,
  wallMs: 1,
});

describe('journal', () => {
  it('writes whole NDJSON lines, one per exchange', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    const journal = createJournal({ file });
    for (let i = 1; i <= 3; i++) journal.record(exchange(i));
    journal.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([
      1, 2, 3,
    ]);
  });

  it('keeps the last 1,000 in memory by default while the file gets every record', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    const journal = createJournal({ file });
    for (let i = 1; i <= 2600; i++) journal.record(exchange(i));
    journal.close();
    const kept = journal.entries();
    expect(kept).toHaveLength(1000);
    expect([kept[0]!.seq, kept.at(-1)!.seq]).toEqual([1601, 2600]);
    expect(journal.count).toBe(2600);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2600);
  });

  it('writes HAR 1.2 when the name ends in .har', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.har');
    const journal = createJournal({ file });
    journal.record(exchange(1));
    journal.close();
    const har = JSON.parse(readFileSync(file, 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]).toMatchObject({
      request: {
        method: 'POST',
        url: 'http://127.0.0.1/ch-1',
        postData: { mimeType: 'application/json' },
      },
      response: { status: 200, content: { text: '{"result":"ok"}' } },
      timings: { send: 0, receive: 0 },
    });
  });

  it('redacts secrets before storing', () => {
    const journal = createJournal({ redact: createRedactor(['r4nd0m-secret']) });
    const seq = journal.record({
      ...exchange(1),
      request: { method: 'POST', url: 'http://x/r4nd0m-secret/ch-1' },
    });
    expect(seq).toBe(1);
    expect(journal.entries()[0]!.request.url).toBe('http://x/***/ch-1');
  });
});
