import { describe, expect, it } from 'vitest';
import { isForegroundJob } from '../../../src/cli/terminal.js';

// /proc/self/stat: pid (comm) state ppid pgrp session tty_nr tpgid ...
const stat = (pgrp: number, tpgid: number, comm = 'node') =>
  `4242 (${comm}) S 100 ${pgrp} 100 34816 ${tpgid} 4194560 1234 0 0 0`;

describe('isForegroundJob (a job started with & keeps serving)', () => {
  it('the foreground job owns the terminal', () => {
    expect(isForegroundJob({ isTTY: true }, () => stat(4242, 4242))).toBe(true);
  });

  it('a background job does not, and neither does a process without a terminal', () => {
    expect(isForegroundJob({ isTTY: true }, () => stat(4242, 4300))).toBe(false);
    expect(isForegroundJob({ isTTY: true }, () => stat(4242, -1))).toBe(false);
    expect(isForegroundJob({ isTTY: false }, () => stat(4242, 4242))).toBe(false);
  });

  it('reads past a command name with spaces and parentheses', () => {
    expect(isForegroundJob({ isTTY: true }, () => stat(7, 7, 'a (b) c'))).toBe(true);
  });

  it('where /proc cannot be read, a terminal counts as foreground', () => {
    const unreadable = (): string => {
      throw new Error('ENOENT');
    };
    expect(isForegroundJob({ isTTY: true }, unreadable)).toBe(true);
  });
});
