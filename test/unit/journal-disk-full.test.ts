import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createJournal,
  type ExchangeInput,
  type RecordingStatus,
} from '../../src/journal/index.js';
import { tmpfsOrSkip } from '../helpers/tmpfs.js';

const exchange = (n: number): ExchangeInput => ({
  protocolMs: n,
  iface: 'channel',
  direction: 'in',
  request: { method: 'POST', url: 'http://127.0.0.1/ch-1', body: 'x'.repeat(2000) },
  response: { status: 200, body: '{"result":"ok"}' },
});

// a real full disk: a 1 MB tmpfs, filled by the journal itself
const disk = tmpfsOrSkip('1m');
afterAll(() => disk?.unmount());

describe.skipIf(disk === undefined)('the journal on a disk that fills up', () => {
  it('stops once, cuts the file to its last whole line, and keeps counting', () => {
    const file = join(disk!.dir, 'full.ndjson');
    const stops: RecordingStatus[] = [];
    const journal = createJournal({ file, onStop: (status) => stops.push(status) });
    let n = 0;
    // batches of 50 records (~100 KB) until the disk refuses one
    while (stops.length === 0 && n < 2000) {
      for (let i = 0; i < 50; i++) journal.record(exchange(++n));
      journal.flush();
    }
    expect(stops).toHaveLength(1);
    const [stop] = stops;
    expect(stop).toMatchObject({
      state: 'stopped',
      file,
      failure: { code: 'ENOSPC', reason: 'the disk is full' },
    });
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(
      lines.map((_, i) => i + 1),
    );
    expect(stop!.written).toBe(lines.length);
    // serving goes on: records are counted and the newest kept in memory
    for (let i = 0; i < 5; i++) journal.record(exchange(++n));
    expect(journal.count).toBe(n);
    expect(journal.recording).toMatchObject({ state: 'stopped', notWritten: n - lines.length });
    expect(journal.entries(n - 3).map((r) => r.seq)).toEqual([n - 2, n - 1, n]);
    expect(statSync(file).size).toBe(Buffer.byteLength(text)); // nothing more written
    journal.close();
  });

  it('keeps the last whole HAR when a rewrite does not fit', () => {
    const file = join(disk!.dir, 'full.har');
    writeFileSync(join(disk!.dir, 'full.ndjson'), ''); // the space the first test used
    const stops: RecordingStatus[] = [];
    const journal = createJournal({ file, onStop: (status) => stops.push(status) });
    let n = 0;
    while (stops.length === 0 && n < 2000) {
      for (let i = 0; i < 20; i++) journal.record(exchange(++n));
      journal.flush();
    }
    expect(stops[0]).toMatchObject({ state: 'stopped', failure: { code: 'ENOSPC' } });
    const har = JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: unknown[] } };
    expect(har.log.entries).toHaveLength(stops[0]!.written);
    expect(() => statSync(`${file}.tmp`)).toThrow(); // no half-written temporary left
    journal.close();
  });
});
