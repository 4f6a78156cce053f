/** The platform's memory flags on the built CLI: bad values are input errors that say what would be right. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('svc-cli platform memory flags (spawned)', () => {
  it('refuses --record-max-size without an NDJSON --record, and a bad duration', async () => {
    const noRecord = await runCli(['platform', '--no-console', '--record-max-size', '10MB']);
    expect(noRecord.code).toBe(2);
    expect(noRecord.stderr).toContain(
      'Could not use --record-max-size: it rotates an NDJSON --record file, and no --record is given.',
    );
    const idle = await runCli(['platform', '--no-console', '--chat-idle-timeout', 'soon']);
    expect(idle.code).toBe(2);
    expect(idle.stderr).toContain('Could not use --chat-idle-timeout "soon": must be a duration');
    expect(idle.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('documents the idle close as an assumption that fires chat_finished', async () => {
    const help = await runCli(['platform', '--help']);
    expect(help.stdout).toContain('--chat-idle-timeout <duration>');
    expect(help.stdout).toContain('--max-chats <n>');
    expect(help.stdout).toContain('--record-max-size <size>');
    expect(help.stdout).toMatch(/an assumption[\s\S]*fires chat_finished/);
  });
});
