import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('prints a simulator mutant: what the simulator does, the survivor hint, how to run it', async () => {
    const result = await runCli(['explain', 'duplicate-agent-message']);
    expect(result.code, result.stderr).toBe(0);
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      'duplicate-agent-message (simulator mutant, delivery family, section 2.2) The simulator delivers every agent message twice (same message.id).',
    );
    expect(text).toContain('A survivor: your tests do not count deliveries: to kill it,');
    expect(text).toContain('Run it: svc-cli mutate --only duplicate-agent-message --');
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('prints the kinds a section links to by name, not as Markdown anchor links', async () => {
    const result = await runCli(['explain', '4.1']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('](#');
    expect(result.stdout).toMatch(/body: channel\.customer\.text, channel\.customer\.typing,/);
    const json = await runCli(['--json', 'explain', '4.1']);
    expect(JSON.parse(json.stdout).text).toContain('](#channelcustomertext)');
  });

  it('wraps a section to 80 columns when piped: prose at the margin, values under their key', async () => {
    for (const section of ['2', '4.1', '6.2']) {
      const result = await runCli(['explain', section]);
      expect(result.code).toBe(0);
      for (const line of result.stdout.split('\n'))
        expect(line.length, `explain ${section}: ${line}`).toBeLessThanOrEqual(80);
    }
    const four = await runCli(['explain', '4.1']);
    expect(four.stdout).toContain('A 404 means no channel answers at that URL');
    expect(four.stdout).toMatch(/^ {2}answers: 200: .+\n {4}\S/m);
  });

  it("names the unit of a bot message's timestamp: seconds, which timestamp_ms holds it to", async () => {
    const result = await runCli(['explain', 'bot.event.BOT_MESSAGE', 'message.timestamp']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '    unix time of the message, in seconds (milliseconds: accepted, a timestamp_ms warning)\n',
    );
    // the string form the type admits, said as what it must hold
    expect(result.stdout).toContain(
      '  message.timestamp: number or string; required; as a string, a number in digits\n',
    );
  });

  it('says in 4.3 which host each bot URL placeholder is, and that one token serves both ways', async () => {
    const result = await runCli(['explain', '4.3']);
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('the same token both ways');
    expect(text).toContain(
      "`{bot_service_url}` is the platform's bot host, which `svc-cli platform` serves at its own URL (the `bot webhook` line it prints)",
    );
  });

  it('suggests a name for an unknown one and exits 2', async () => {
    const result = await runCli(['explain', 'type_drfit']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean type_drift');
    expect(result.stderr).toContain('more: svc-cli explain SVC_E_UNKNOWN_TOPIC');
    expect(result.stderr.trim().split('\n')).toHaveLength(3);
  });

  it('with no argument lists the topics and exits 0; tables fit the terminal', async () => {
    const list = await runCli(['explain']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('svc-cli explain 2.5');
    expect(list.stdout).toContain('svc-cli explain SVC_E_UNTRUSTED_CERT');
    const section = await runCli(['explain', '2.5']);
    expect(section.stdout).not.toContain('| --- |');
    for (const line of section.stdout.split('\n').filter((l) => l.startsWith('  ')))
      expect(line.length, line).toBeLessThanOrEqual(140);
    expect(section.stdout).toMatch(/^message\.buttons\[\]\.id\n {2}type: string or number$/m);
    const json = await runCli(['--json', 'explain', '2.5']);
    expect(JSON.parse(json.stdout).text).toContain('| --- |');
  });

  it('explains a broken config file from the folder that holds it (it reads none)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-explain-'));
    writeFileSync(join(dir, 'svc.config.json'), '{');
    const status = await runCli(['status'], { cwd: dir });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('more: svc-cli explain SVC_E_CONFIG');
    const result = await runCli(['explain', 'SVC_E_CONFIG'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SVC_E_CONFIG');
  });
});
