import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { walkInputs, type InputRecord } from '../../../src/contract/inputs.js';
import { validateInputBatches, validateInputs } from '../../../src/contract/run-validate.js';

/** Every record of `-` read from these stdin chunks, and how many batches carried them. */
async function readStdinChunks(chunks: Array<string | Buffer>) {
  const records: InputRecord[] = [];
  let batches = 0;
  for await (const batch of walkInputs({ inputs: ['-'], stdin: Readable.from(chunks) })) {
    batches++;
    records.push(...batch);
  }
  return { records, batches };
}

const payloads = (records: InputRecord[]) =>
  records.map((r) => (r.type === 'payload' ? [r.line, r.value] : [r.line, r.code]));

describe('NDJSON lines (issue 18: read a chunk at a time)', () => {
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

    it('gives the same events one at a time as in batches', async () => {
      const single = [];
      for await (const event of validateInputs({ inputs: [file] })) single.push(event);
      const batched = [];
      for await (const events of validateInputBatches({ inputs: [file] })) batched.push(...events);
      expect(single).toEqual(batched);
      expect(single).toHaveLength(lines.length + 1);
      expect(single.at(-1)).toMatchObject({ type: 'summary', payloads: 20_000, valid: 20_000 });
    });
  });
});
