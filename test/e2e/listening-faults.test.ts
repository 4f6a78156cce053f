/**
 * --json: a serving command's `listening` line names the faults given at start, as its banner's
 * faults line does, so a script that starts one with faults can check what it serves.
 */
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

const listening = async (args: string[]): Promise<Record<string, unknown>> => {
  const run = spawnCli(['--json', ...args, '--port', '0']);
  const line = await run.next((o) => o.type === 'listening');
  run.child.kill('SIGTERM');
  await run.exit;
  return line;
};

describe('the listening line with --json', () => {
  it.each([
    [['platform', '--no-console', '--fault', 'status:503'], '--fault status:503'],
    [
      ['listen', '--fault', 'status:503', '--fault-rate', '0.5'],
      '--fault status:503 --fault-rate 0.5',
    ],
    [['hook-target', '--fail-first', '2'], '--fail-first 2'],
    [['bot-sim', '--fail-first', '1'], '--fail-first 1'],
  ])('%j names its faults', async (args, flags) => {
    expect((await listening(args)).faults).toEqual({ flags });
  });

  it('has no faults without a plan', async () => {
    expect(await listening(['listen'])).not.toHaveProperty('faults');
  });
});
