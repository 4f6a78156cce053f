import { describe, expect, it } from 'vitest';
import { JOIN_CHUNK_CHARS, joinInChunks } from '../../src/io/join-in-chunks.js';

const collect = (texts: string[], max?: number): string[] => {
  const chunks: string[] = [];
  joinInChunks(texts, (text) => chunks.push(text), max);
  return chunks;
};

describe('joinInChunks', () => {
  it('writes a small batch as one string', () => {
    expect(collect(['a\n', 'b\n', 'c\n'])).toEqual(['a\nb\nc\n']);
  });

  it('writes nothing for an empty batch', () => {
    expect(collect([])).toEqual([]);
  });

  it('keeps each chunk within the limit, whole texts only, in order', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `${String(i).repeat(3)}\n`); // 4 chars each
    const chunks = collect(lines, 10);
    expect(chunks).toEqual(['000\n111\n', '222\n333\n', '444\n555\n', '666\n777\n', '888\n999\n']);
    expect(chunks.join('')).toBe(lines.join(''));
  });

  it('gives a text longer than the limit a chunk of its own', () => {
    const long = 'x'.repeat(25);
    expect(collect(['ab', long, 'cd', 'ef'], 10)).toEqual(['ab', long, 'cdef']);
  });

  it('splits a batch the size of a simulator under load (~140 KB) under the large-object size', () => {
    const line = `${'{"type":"exchange"}'.padEnd(699, ' ')}\n`;
    const lines = Array.from({ length: 200 }, () => line);
    const chunks = collect(lines);
    expect(chunks.length).toBeGreaterThan(1);
    expect(JOIN_CHUNK_CHARS * 2).toBeLessThan(128 * 1024); // even a UTF-16 chunk
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(JOIN_CHUNK_CHARS);
    expect(chunks.join('')).toBe(lines.join(''));
  });
});
