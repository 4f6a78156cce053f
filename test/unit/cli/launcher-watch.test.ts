/**
 * `npx svc-cli ...`: npm exits on SIGTERM without passing it on; a command started under
 * `npm exec` stops when its launcher is gone (src/cli/main.ts `watchLauncher`).
 */
import { describe, expect, it } from 'vitest';
import { watchLauncher } from '../../../src/cli/main.js';

describe('watchLauncher', () => {
  it('calls back once when the launcher of an npm exec run is gone', async () => {
    let parent = 4242;
    let reads = 0;
    const gone = new Promise<number>((resolve) => {
      watchLauncher(
        { npm_command: 'exec' },
        () => resolve(reads),
        () => {
          reads++;
          if (reads === 3) parent = 1; // reparented to init: npx exited
          return parent;
        },
        1,
      );
    });
    expect(await gone).toBe(3);
  });

  it('watches nothing outside npm exec, or with no launcher to lose', () => {
    const never = () => {
      throw new Error('not to be called');
    };
    expect(watchLauncher({}, never, () => 4242, 1)).toBeUndefined();
    expect(watchLauncher({ npm_command: 'run' }, never, () => 4242, 1)).toBeUndefined();
    expect(watchLauncher({ npm_command: 'exec' }, never, () => 1, 1)).toBeUndefined();
  });

  it('does not call back while the launcher stays', async () => {
    let reads = 0;
    let called = false;
    const stop = watchLauncher(
      { npm_command: 'exec' },
      () => (called = true),
      () => ++reads && 4242,
      1,
    );
    // the launcher is read a few times, and each time is still there
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (reads < 5) return;
        clearInterval(check);
        resolve();
      }, 1);
    });
    stop?.();
    expect(called).toBe(false);
  });
});
