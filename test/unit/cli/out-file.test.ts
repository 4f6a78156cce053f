import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutFile, checkWritableFile } from '../../../src/cli/out-file.js';
import type { SvcError } from '../../../src/errors.js';

const messageOf = (file: string, cwd: string): string => {
  try {
    checkWritableFile({ cwd, file, flag: '--out' });
  } catch (error) {
    return (error as Error).message;
  }
  return 'ok';
};

describe('checkWritableFile: what is wrong with the path a flag names', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'svc-out-file-'));
  writeFileSync(join(cwd, 'notes.txt'), 'a file');

  it('a file where a folder should be is named as a file, however deep', () => {
    expect(messageOf('notes.txt/r.xml', cwd)).toBe(
      `Could not use --out notes.txt/r.xml: ${join(cwd, 'notes.txt')} is a file, not a folder.`,
    );
    expect(messageOf('notes.txt/deeper/r.xml', cwd)).toContain(
      `${join(cwd, 'notes.txt')} is a file, not a folder.`,
    );
  });

  it('a missing folder is a folder that does not exist; a good path passes', () => {
    expect(messageOf('missing/r.xml', cwd)).toBe(
      'Could not use --out missing/r.xml: the folder missing does not exist.',
    );
    expect(messageOf('r.xml', cwd)).toBe('ok');
  });
});

describe('checkOutFile with the pretty reporter', () => {
  const hintOf = (out: string): string | undefined => {
    try {
      checkOutFile({ cwd: tmpdir(), out, reporter: 'pretty', command: 'conform hooks' });
    } catch (error) {
      return (error as SvcError).hint;
    }
    return undefined;
  };

  it('suggests the reporter the file name asks for', () => {
    expect(hintOf('x.json')).toContain('svc-cli conform hooks --reporter json --out x.json');
    expect(hintOf('x.xml')).toContain('svc-cli conform hooks --reporter junit --out x.xml');
  });
});
