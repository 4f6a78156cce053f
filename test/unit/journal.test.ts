import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  readdirSync,
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
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

/** The file's times set a minute back: what a run killed earlier left. */
function killedLongAgo(file: string): void {
  const then = new Date(Date.now() - 60_000);
  utimesSync(file, then, then);
}

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

  it('writes a batch larger than a write chunk whole and in order', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    const journal = createJournal({ file });
    const body = `{"text":"${'é'.repeat(1000)}"}`; // ~1 KB lines: 300 make ~10 chunks
    for (let i = 1; i <= 300; i++)
      journal.record({ ...exchange(i), request: { ...exchange(i).request, body } });
    journal.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    const records = lines.slice(0, -1).map((l) => JSON.parse(l) as { seq: number });
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it('drops a cut last line (a killed run) before it appends, even one longer than 64 KiB', () => {
    for (const cut of [`{"seq":9,"a":"x`, `{"seq":9,"a":"${'x'.repeat(70_000)}`]) {
      const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
      const first = createJournal({ file });
      first.record(exchange(1));
      first.close();
      const whole = readFileSync(file, 'utf8');
      appendFileSync(file, cut);
      killedLongAgo(file);
      const repaired: number[] = [];
      const next = createJournal({ file, onRepair: (bytes) => repaired.push(bytes) });
      next.record(exchange(2));
      next.close();
      expect(repaired).toEqual([Buffer.byteLength(cut)]);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(whole)).toBe(true);
      expect(
        text
          .slice(whole.length)
          .split('\n')
          .slice(0, -1)
          .map((l) => JSON.parse(l) as { attempt: number })
          .map((r) => r.attempt),
      ).toEqual([2]);
    }
    // a file that is only a cut line is emptied; a whole file is left as it is
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    writeFileSync(file, '{"seq":1');
    killedLongAgo(file);
    const repaired: number[] = [];
    createJournal({ file, onRepair: (bytes) => repaired.push(bytes) }).close();
    expect(readFileSync(file, 'utf8')).toBe('');
    createJournal({ file, onRepair: (bytes) => repaired.push(bytes) }).close();
    expect(repaired).toEqual([8]);
  });

  it('leaves a tail written in the last second alone: another process may be writing it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    writeFileSync(file, '{"seq":1,"a":"x'); // just now: a write in progress elsewhere
    const repaired: number[] = [];
    createJournal({ file, onRepair: (bytes) => repaired.push(bytes) }).close();
    expect(repaired).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('{"seq":1,"a":"x');
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

  it('without a file: the last `keep` in memory, after a seq, each read a fresh copy', () => {
    const journal = createJournal({ keep: 5 });
    for (let n = 1; n <= 12; n++) journal.record(exchange(n));
    // one batch of 12: the ring holds the last 5
    expect(journal.entries().map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(journal.entries(9).map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(journal.entries(12)).toEqual([]);
    expect(journal.entries(3).map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    const [first] = journal.entries(11);
    expect(first).toMatchObject({ type: 'exchange', seq: 12, protocolMs: 12 });
    // kept as JSON: a caller's change to what it read is not the journal's
    (first as { protocolMs: number }).protocolMs = -1;
    expect(journal.entries(11)[0]).toMatchObject({ protocolMs: 12 });
    expect(createJournal({ keep: 0 }).entries()).toEqual([]);
  });

  it('reads entries back from the tail of its file: this session only, after a seq', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    // an earlier session's lines stay in the file and out of this journal's entries
    writeFileSync(file, `${JSON.stringify({ type: 'exchange', seq: 1, old: true })}\nnot json\n`);
    const journal = createJournal({ file, keep: 50 });
    // bodies of ~2 KB: 300 records are ~700 KB, read back in 64 KiB pieces
    const big = (n: number) => ({
      ...exchange(n),
      // two-byte characters: the 64 KiB pieces split some of them in half
      request: { method: 'POST', url: 'http://127.0.0.1/ch-1', body: `${n}:${'é'.repeat(999)}` },
    });
    for (let i = 1; i <= 300; i++) journal.record(big(i));
    const kept = journal.entries(); // before any write: entries() writes what is pending
    expect(kept.map((r) => r.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 251 + i));
    expect(kept.map((r) => r.request.body)).toEqual(kept.map((r) => big(r.seq).request.body));
    expect(journal.entries(297).map((r) => r.seq)).toEqual([298, 299, 300]);
    expect(journal.entries(300)).toEqual([]);
    journal.record(exchange(301));
    journal.close();
    expect(journal.entries(299).map((r) => r.seq)).toEqual([300, 301]); // after close, too
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(303);
  });

  it('reads back only its own exchanges when others write to the same file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    const a = createJournal({ file });
    const b = createJournal({ file }); // another command recording to the same file
    for (let i = 1; i <= 3; i++) {
      a.record(exchange(i));
      a.flush();
      b.record(exchange(200 + i));
      b.flush();
      appendFileSync(file, `${JSON.stringify({ type: 'listening', url: 'x' })}\n`); // --json
    }
    expect(a.entries().map((r) => [r.seq, r.protocolMs])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(b.entries(1).map((r) => [r.seq, r.protocolMs])).toEqual([
      [2, 202],
      [3, 203],
    ]);
    expect(new Set([a.entries()[0]!.run, b.entries()[0]!.run]).size).toBe(2);
    a.close();
    b.close();
    expect(a.entries(2).map((r) => r.protocolMs)).toEqual([3]); // after close, from the file
  });

  it('a torn line hides only itself: older records stay readable', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    const journal = createJournal({ file });
    for (let i = 1; i <= 5; i++) journal.record(exchange(i));
    journal.flush();
    appendFileSync(file, '{"partial":'); // another writer stopped mid-line: seq 6 joins it
    for (let i = 6; i <= 9; i++) journal.record(exchange(i));
    expect(journal.entries().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 7, 8, 9]);
    journal.close();
  });

  it('journals a record it cannot serialise as that failure and keeps the rest', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'x.ndjson');
    const journal = createJournal({ file });
    journal.record(exchange(1));
    journal.record({ ...exchange(2), protocolMs: 10n as unknown as number });
    journal.record(exchange(3));
    journal.flush();
    const entries = journal.entries();
    expect(entries.map((r) => [r.seq, r.failure?.reason])).toEqual([
      [1, undefined],
      [2, 'unrecordable'],
      [3, undefined],
    ]);
    expect(entries[1]!.failure!.message).toMatch(/BigInt/);
    journal.close();
  });

  it('keeps a record it cannot serialise as that failure in memory too, as with a file', () => {
    const journal = createJournal();
    journal.record(exchange(1));
    journal.record({ ...exchange(2), protocolMs: 10n as unknown as number });
    const entries = journal.entries();
    expect(entries.map((r) => [r.seq, r.failure?.reason])).toEqual([
      [1, undefined],
      [2, 'unrecordable'],
    ]);
    // and the control API can serialise what it reads
    expect(() => JSON.stringify(entries)).not.toThrow();
  });

  it('appends to a pipe only: a reader that goes away fails the write instead of blocking it', () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const journal = createJournal({ file: fifo });
    closeSync(reader);
    journal.record(exchange(1));
    // opened read-write, the journal would be a reader of its own pipe and this would succeed
    // (and block for good once the pipe's buffer is full); the failed write stops the recording
    journal.flush();
    expect(journal.recording).toMatchObject({ state: 'stopped', failure: { code: 'EPIPE' } });
  });

  it('keeps entries in memory when its file cannot be read back (a pipe)', () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'svc-journal-')), 'fifo');
    execFileSync('mkfifo', [fifo]);
    // the read end first (non-blocking), so the pipe keeps what the journal writes
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const journal = createJournal({ file: fifo, keep: 2 });
      for (let i = 1; i <= 3; i++) journal.record(exchange(i));
      expect(journal.entries().map((r) => r.seq)).toEqual([2, 3]);
      journal.close();
      const buffer = Buffer.alloc(65_536);
      const text = buffer.subarray(0, readSync(reader, buffer)).toString('utf8');
      expect(text.trim().split('\n')).toHaveLength(3);
    } finally {
      closeSync(reader);
    }
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

  it('rotates at maxBytes into .1, .2 ... and loses no record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
    const file = join(dir, 'r.ndjson');
    writeFileSync(`${file}.1`, 'an older rotation\n');
    const journal = createJournal({ file, keep: 30, maxBytes: 2048 });
    for (let i = 1; i <= 100; i++) {
      journal.record(exchange(i));
      if (i % 5 === 0) journal.flush(); // a batch boundary
    }
    // the recent records span the current file and the one rotated last
    expect(journal.entries().map((r) => r.seq)).toEqual(
      Array.from({ length: 30 }, (_, i) => 71 + i),
    );
    journal.close();
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThan(3);
    const seqs: number[] = [];
    let olderSeen = 0;
    for (const name of files) {
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
        if (line === 'an older rotation') olderSeen++;
        else if (line) seqs.push((JSON.parse(line) as { seq: number }).seq);
      }
    }
    expect(olderSeen).toBe(1); // moved up, never deleted
    expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });
});
