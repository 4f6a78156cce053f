import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSpecialFile, writeFileWhole, writeFileWholeAsync } from '../../src/io/write-whole.js';

const dirs: string[] = [];
const readers: ChildProcess[] = [];
afterEach(() => {
  // a reader still waiting (the FIFO was replaced) must not outlive the test
  for (const reader of readers.splice(0)) if (reader.exitCode === null) reader.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A FIFO in a fresh folder and a reader that copies what comes through it to `out`. */
function fifoWithReader() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-write-whole-'));
  dirs.push(dir);
  const fifo = join(dir, 'report.fifo');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const out = join(dir, 'read.txt');
  const reader = spawn('sh', ['-c', 'exec cat "$0" > "$1"', fifo, out]);
  readers.push(reader);
  return { dir, fifo, out, done: once(reader, 'exit') };
}

describe('writeFileWhole: a report written whole or not at all', () => {
  // `--out /dev/null` or a FIFO a script reads: a temporary renamed over it replaced the
  // device with a regular file (as root, /dev/null became one, and later runs read it)
  it('writes a FIFO straight, leaving it a FIFO and no temporary beside it', async () => {
    const { dir, fifo, out, done } = fifoWithReader();
    expect(isSpecialFile(fifo)).toBe(true);
    writeFileWhole(fifo, 'the report\n');
    await done;
    expect(readFileSync(out, 'utf8')).toBe('the report\n');
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['read.txt', 'report.fifo']);
  });

  it('async: the same', async () => {
    const { fifo, out, done } = fifoWithReader();
    await writeFileWholeAsync(fifo, 'async report\n');
    await done;
    expect(readFileSync(out, 'utf8')).toBe('async report\n');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a regular file or a new one is not special', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-write-whole-'));
    dirs.push(dir);
    const file = join(dir, 'r.xml');
    expect(isSpecialFile(file)).toBe(false);
    writeFileWhole(file, '<x/>');
    expect(isSpecialFile(file)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('<x/>');
  });
});
