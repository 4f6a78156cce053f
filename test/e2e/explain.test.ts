import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('svc-cli explain', () => {
  it('prints a section, and --json one explain object', async () => {
    const result = await runCli(['explain', '2.5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('2.5 Bot events and messages');
    expect(result.stdout).toContain('bot.event.BOT_MESSAGE');
    const json = await runCli(['--json', 'explain', 'SVC_E_UNTRUSTED_CERT']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      type: 'explain',
      topic: 'error',
      exitCode: 3,
    });
  });

  it('suggests a name for an unknown one and exits 2', async () => {
    const result = await runCli(['explain', 'type_drfit']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean type_drift');
    expect(result.stderr).toContain('more: svc-cli explain SVC_E_UNKNOWN_TOPIC');
    expect(result.stderr.trim().split('\n')).toHaveLength(3);
  });
});
