import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder per test run: every test (and every CLI it spawns) that calls
 * os.tmpdir() writes under it, and it is removed when the run ends, so runs leave nothing
 * behind in the system temp folder. Each vitest project runs the global setup, in one process:
 * the first makes the folder and the others keep it, or the folders would nest one inside the
 * other (Chromium then refuses a socket path that long).
 */
export default function setup(): () => void {
  if (process.env.SVC_TEST_RUN_DIR) return () => undefined;
  // the browser tier skips its files without Chromium: a contributor should know why
  // (test/helpers/chromium.ts)
  if (!existsSync('/usr/bin/chromium'))
    process.stderr.write(
      'svc-cli tests: /usr/bin/chromium is missing, so the browser tests are skipped (Debian: apt-get install chromium)\n',
    );
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-run-'));
  process.env.SVC_TEST_RUN_DIR = dir;
  process.env.TMPDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env.SVC_TEST_RUN_DIR;
  };
}
