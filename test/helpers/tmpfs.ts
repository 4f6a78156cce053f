/**
 * A small tmpfs for tests that need the disk to fill up for real (ENOSPC). Mounting needs
 * root (or CAP_SYS_ADMIN); where it is not allowed, `mountTmpfs` says why in one line and the
 * test is skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  unmount(): void;
}

/** Mounts a tmpfs of `size` (e.g. `2m`); `{ skip }` with the reason when it cannot. */
export function mountTmpfs(size: string): Tmpfs | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const text = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? String(error);
    return { skip: `cannot mount a tmpfs here (${text.split('\n')[0] ?? ''}): skipped` };
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The tmpfs, or undefined after printing the one line that says why the test is skipped. */
export function tmpfsOrSkip(size: string): Tmpfs | undefined {
  const mounted = mountTmpfs(size);
  if ('skip' in mounted) {
    process.stderr.write(`${mounted.skip}\n`);
    return undefined;
  }
  return mounted;
}
