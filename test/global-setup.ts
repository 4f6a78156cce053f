import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder per test run: every test (and every CLI it spawns) that calls
 * os.tmpdir() writes under it, and it is removed when the run ends, so runs leave nothing
 * behind in the system temp folder.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-run-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
