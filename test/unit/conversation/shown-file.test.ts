/**
 * How replay names a conversation file in its results and repro lines: a shipped fixture
 * outside the working folder (the single binary's copies under $TMPDIR) as `fixtures/...`,
 * the name `svc-cli replay` finds again, not a climb out of the working folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shownFile } from '../../../src/conversation/load.js';
import type { PackageFiles } from '../../../src/package-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package whose fixtures are copied to `copies` (as the binary's are). */
const packageAt = (copies: string): PackageFiles =>
  ({ folderOf: (dir: string) => join(copies, dir) }) as unknown as PackageFiles;

describe('shownFile', () => {
  const copies = '/tmp/svc-cli-0/files-1a887e3d';
  const shipped = join(copies, 'fixtures/conversations/typing-both-ways.json');

  it('names a shipped fixture outside the working folder as fixtures/...', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-shown-'));
    dirs.push(cwd);
    expect(shownFile(cwd, shipped, packageAt(copies))).toBe(
      'fixtures/conversations/typing-both-ways.json',
    );
  });

  it('keeps the path when the working folder has a file of that name (replay would run that)', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-shown-'));
    dirs.push(cwd);
    mkdirSync(join(cwd, 'fixtures/conversations'), { recursive: true });
    writeFileSync(join(cwd, 'fixtures/conversations/typing-both-ways.json'), '{}');
    expect(shownFile(cwd, shipped, packageAt(copies))).toMatch(/^\.\.\//);
  });

  it('names a file in or outside the working folder relative to it', () => {
    expect(shownFile('/home/ann/shop', '/home/ann/shop/flows/a.json', packageAt(copies))).toBe(
      'flows/a.json',
    );
    expect(shownFile('/home/ann/shop', '/home/ann/b.json', packageAt(copies))).toBe('../b.json');
  });
});
