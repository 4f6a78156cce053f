import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { walkInputs, type InputRecord } from '../../../src/contract/inputs.js';
import { validateInputBatches, validateInputs } from '../../../src/contract/run-validate.js';

/** Every record of the inputs (`-` by default) read from these stdin chunks. */
async function readStdinChunks(
  chunks: Array<string | Buffer>,
  options: { inputs?: string[]; maxDocumentBytes?: number } = {},
) {
  const records: InputRecord[] = [];
  const stdin = Readable.from(chunks);
  for await (const batch of walkInputs({ inputs: ['-'], stdin, ...options }))
    records.push(...batch);
  return { records };
}

const payloads = (records: InputRecord[]) =>
  records.map((r) => (r.type === 'payload' ? [r.line, r.value] : [r.line, r.code]));

describe('NDJSON lines (read a chunk at a time)', () => {
  it('keeps a \\r\\n split across two chunks as one line break', async () => {
    const { records } = await readStdinChunks(['{"a":1}\r', '\n{"b":2}\r\n']);
    expect(payloads(records)).toEqual([
      [1, { a: 1 }],
      [2, { b: 2 }],
    ]);
  });

  it('breaks lines on a lone \\r, as readline does', async () => {
    const { records } = await readStdinChunks(['{"a":1}\r{"b":2}\r']);
    expect(payloads(records)).toEqual([
      [1, { a: 1 }],
      [2, { b: 2 }],
    ]);
  });

  it('decodes a character whose bytes are split across chunks', async () => {
    const bytes = Buffer.from('{"t":"é😀"}\n', 'utf8');
    const cut = bytes.indexOf(0xa9); // inside the two bytes of é
    const { records } = await readStdinChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(payloads(records)).toEqual([[1, { t: 'é😀' }]]);
  });

  it('numbers lines with the blank ones counted and reads a last line without a break', async () => {
    const { records } = await readStdinChunks(['\n{"a":1}\n', '\n', 'not json\n{"b":', '2}']);
    expect(payloads(records)).toEqual([
      [2, { a: 1 }],
      [4, 'not_json'],
      [5, { b: 2 }],
    ]);
  });

  it('drops a leading byte-order mark', async () => {
    const { records } = await readStdinChunks(['\uFEFF{"a":1}\n{"b":2}\n']);
    expect(payloads(records)).toEqual([
      [1, { a: 1 }],
      [2, { b: 2 }],
    ]);
  });

  it('keeps one corrupt line with a NUL in a good stream as one not-JSON line', async () => {
    const { records } = await readStdinChunks(['{"a":1}\n', 'x\u0000y\n', '{"b":2}\n']);
    expect(payloads(records)).toEqual([
      [1, { a: 1 }],
      [2, 'not_json'],
      [3, { b: 2 }],
    ]);
  });

  it('reads a line far longer than a chunk, in as many pieces as it comes', async () => {
    const text = 'x'.repeat(2_000_000);
    const line = JSON.stringify({ t: text });
    const pieces = line.match(/[^]{1,1000}/g) ?? [];
    const { records } = await readStdinChunks([...pieces, '\r', '\n{"b":2}']);
    expect(records.map((r) => r.line)).toEqual([1, 2]);
    expect((records[0] as { value: { t: string } }).value.t).toHaveLength(text.length);
  });

  describe('stdin', () => {
    const read = async (chunks: string[], maxDocumentBytes?: number) =>
      (
        await readStdinChunks(chunks, {
          inputs: ['-', '-'],
          ...(maxDocumentBytes === undefined ? {} : { maxDocumentBytes }),
        })
      ).records;

    it('reads one pretty-printed document, and the second - finds nothing left', async () => {
      const records = await read(['{\n  "result": "ok"\n', '}\n']);
      expect(records[0]).toEqual({ type: 'payload', source: '<stdin>', value: { result: 'ok' } });
      expect(records[1]).toMatchObject({ type: 'unreadable', source: '<stdin>' });
      expect(records).toHaveLength(2);
    });

    it('refuses a document over the limit even when it came in one chunk', async () => {
      const records = await read(['{\n  "result": "ok"\n}\n'], 10);
      expect(records[0]).toMatchObject({ type: 'unreadable', code: 'too_large' });
    });

    it('says so when there are only blank lines', async () => {
      const records = await read(['\n  \n', '\r\n']);
      expect(records[0]).toMatchObject({ type: 'unreadable', code: 'empty' });
    });
  });

  describe('a file of 20,000 lines', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-inputs-'));
    const file = path.join(dir, 'many.ndjson');
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ sender: { id: `c${i}` }, message: { type: 'text', text: `hi ${i}` } }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('comes in a few batches, every line once and in order', async () => {
      const lineNumbers: number[] = [];
      let batches = 0;
      for await (const batch of walkInputs({ inputs: [file] })) {
        batches++;
        for (const record of batch) lineNumbers.push(record.line ?? 0);
      }
      expect(lineNumbers).toEqual(lines.map((_, i) => i + 1));
      expect(batches).toBeLessThan(lines.length / 50);
    });

    it('validates each line and ends with the summary, one at a time or in batches', async () => {
      const single = [];
      for await (const event of validateInputs({ inputs: [file] })) single.push(event);
      expect(single).toHaveLength(lines.length + 1);
      expect(single[0]).toEqual({
        type: 'result',
        source: file,
        line: 1,
        kind: 'channel.customer.text',
        verdict: 'valid',
        errors: [],
        warnings: [],
      });
      expect(single[19_999]).toMatchObject({ line: 20_000, verdict: 'valid' });
      expect(single.at(-1)).toEqual({
        type: 'summary',
        payloads: 20_000,
        valid: 20_000,
        warning: 0,
        invalid: 0,
        unreadable: 0,
        exitCode: 0,
      });
      let batches = 0;
      let events = 0;
      for await (const batch of validateInputBatches({ inputs: [file] })) {
        batches++;
        events += batch.length;
      }
      expect(events).toBe(single.length);
      expect(batches).toBeLessThan(lines.length / 50);
    });
  });
});
