import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineBatch, WRITE_CHUNK_BYTES } from '../../../src/journal/line-batch.js';

const file = (): { path: string; fd: number } => {
  const path = join(mkdtempSync(join(tmpdir(), 'svc-lines-')), 'x.ndjson');
  return { path, fd: openSync(path, 'a+') };
};

describe('line batch', () => {
  it('writes the lines as UTF-8, in order, in chunks that end on a line', () => {
    const { path, fd } = file();
    const batch = createLineBatch();
    const lines = Array.from(
      { length: 500 },
      (_, i) => `{"n":${i},"t":"${'é😀x'.repeat(i % 90)}"}`,
    );
    for (const line of lines) batch.add(line);
    expect(batch.lines).toBe(500);
    const chunks: Array<[number, number]> = [];
    batch.writeTo(fd, (bytes, count) => chunks.push([bytes, count]));
    closeSync(fd);
    const written = readFileSync(path);
    expect(written.toString('utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.reduce((sum, [b]) => sum + b, 0)).toBe(written.length);
    expect(chunks.reduce((sum, [, n]) => sum + n, 0)).toBe(500);
    let at = 0;
    for (const [bytes] of chunks) {
      at += bytes;
      expect(written[at - 1]).toBe(0x0a); // each chunk ends a line
    }
    expect(chunks.slice(0, -1).every(([b]) => b >= WRITE_CHUNK_BYTES)).toBe(true);
    expect(batch.lines).toBe(0);
  });

  it('takes a line larger than its buffer, and is empty after a failed write', () => {
    const batch = createLineBatch();
    batch.add('x'.repeat(3 * WRITE_CHUNK_BYTES));
    batch.add('y');
    expect(() => batch.writeTo(-1, () => undefined)).toThrow(); // EBADF
    expect(batch.lines).toBe(0);
    const { path, fd } = file();
    batch.add('z');
    batch.writeTo(fd, () => undefined);
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe('z\n');
  });
});
