/** The built CLI: record diff and record profile on two recordings, platform --profile. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_DELIVERY_POLICY } from '../../src/platform/delivery.js';
import { startCliServer } from '../helpers/cli-server.js';
import { recordDriftSession } from '../helpers/drift-session.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-drift-e2e-'));
  await recordDriftSession(join(dir, 'two.ndjson'));
  await recordDriftSession(join(dir, 'three.ndjson'), {
    bot: { policy: { ...BOT_DELIVERY_POLICY, attempts: 3, failAfterMs: 9000 } },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('svc-cli record diff / record profile / --profile (e2e)', () => {
  it('diff: NDJSON differences and a summary, exit 1 on behaviour; 0 against itself', async () => {
    const run = await runCli(['record', 'diff', 'two.ndjson', 'three.ndjson', '--json'], {
      cwd: dir,
    });
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.type, l.aspect])).toEqual([
      ['difference', 'attempts'],
      ['difference', 'hand-over'],
      ['diff-summary', undefined],
    ]);
    const same = await runCli(['record', 'diff', 'three.ndjson', 'three.ndjson'], { cwd: dir });
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('no differences');
  });

  it("diff: an error object in one side's 200 answers is behaviour, exit 1 (spec 4.2, 7.1)", async () => {
    // the same session, the integrator refusing each agent message under a 200 (spec 4.2)
    const refused = JSON.stringify({ error: { code: 'chat_closed', message: 'chat is closed' } });
    const lines = readFileSync(join(dir, 'two.ndjson'), 'utf8').trim().split('\n');
    const erring = lines.map((line) => {
      const record = JSON.parse(line) as { kind?: string; response?: { body?: string } };
      if (record.kind === 'channel.agent.text' && record.response) record.response.body = refused;
      return JSON.stringify(record);
    });
    writeFileSync(join(dir, 'erring.ndjson'), `${erring.join('\n')}\n`);
    const run = await runCli(['record', 'diff', 'two.ndjson', 'erring.ndjson'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const shown = run.stdout.split('\n');
    const behaviour = shown.indexOf('behaviour (what a peer sees happen)');
    expect(behaviour).toBeGreaterThan(-1);
    expect(shown[behaviour + 1]).toBe(
      '  channel.agent.text  [integrator]  2xx answers carrying an error object (the sender is told it failed, spec 7): a 0 of 2; b 2 of 2',
    );
    // said once, as behaviour: not again as a field present on one side only
    expect(run.stdout).not.toContain('answer error:');
    expect(run.stdout).toContain('2 differences: 1 behaviour, 1 shape, 0 cosmetic');
    const json = await runCli(['record', 'diff', 'erring.ndjson', 'two.ndjson', '--json'], {
      cwd: dir,
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout.split('\n')[0]!)).toMatchObject({
      type: 'difference',
      severity: 'behaviour',
      kind: 'channel.agent.text',
      aspect: 'answer-error',
      by: 'peer',
      peer: 'integrator',
      a: { 'error object': 2 },
      b: { 'no error object': 2 },
    });
  });

  it('--json: record profile and record to-fixture print one typed object each', async () => {
    const profile = await runCli(['--json', 'record', 'profile', 'three.ndjson'], { cwd: dir });
    expect(profile.code, profile.stderr).toBe(0);
    const lines = profile.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'profile', profile: { version: 1 } });
    const fixture = await runCli(['--json', 'record', 'to-fixture', 'three.ndjson'], { cwd: dir });
    expect(fixture.code, fixture.stderr).toBe(0);
    const converted = fixture.stdout.trim().split('\n');
    expect(converted).toHaveLength(1);
    expect(JSON.parse(converted[0]!)).toMatchObject({
      type: 'conversation',
      conversation: { version: 1 },
    });
  });

  it('an empty recording is refused by diff, profile and to-fixture (exit 2), not "no differences"', async () => {
    writeFileSync(join(dir, 'empty.ndjson'), '');
    for (const argv of [
      ['record', 'diff', 'empty.ndjson', 'empty.ndjson'],
      ['record', 'diff', 'three.ndjson', 'empty.ndjson'],
      ['record', 'profile', 'empty.ndjson', '-o', 'empty.profile.json'],
      // not "record the platform side instead": the file was never written
      ['record', 'to-fixture', 'empty.ndjson', '-o', 'empty.json'],
    ]) {
      const run = await runCli(argv, { cwd: dir });
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toContain('empty.ndjson: it holds no exchanges: was it recorded?');
      expect(run.stdout).not.toContain('no differences');
    }
    expect(existsSync(join(dir, 'empty.profile.json'))).toBe(false);
    expect(existsSync(join(dir, 'empty.json'))).toBe(false);
  });

  it('profile: learned, written, followed by platform; a bad profile is an input error', async () => {
    const learn = await runCli(['record', 'profile', 'three.ndjson', '-o', 'p.json'], { cwd: dir });
    expect(learn.code).toBe(0);
    expect(learn.stderr).toContain('bot attempts 3, hand-over after 9000 ms');
    const bad = await runCli(['platform', '--profile', join(dir, 'none.json'), '--port', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Could not read the profile');
    const server = await startCliServer([
      'platform',
      '--json',
      '--port',
      '0',
      '--profile',
      join(dir, 'p.json'),
    ]);
    expect(server.listening.type).toBe('listening');
    expect(await server.stop()).toBe(130); // stopped by SIGINT, as a serving command is
  });

  it('proxy --profile <file>: the banner names the profile by its own name, not its file', async () => {
    const learn = await runCli(
      ['record', 'profile', 'three.ndjson', '-o', 'staging.profile.json', '--name', 'real'],
      { cwd: dir },
    );
    expect(learn.code).toBe(0);
    const proxy = await startCliServer([
      ...['proxy', 'bot', '--json', '--port', '0', '--provider-url', 'http://127.0.0.1:1/bot'],
      ...['--profile', join(dir, 'staging.profile.json')],
    ]);
    expect(proxy.listening).toMatchObject({ type: 'listening', iface: 'bot', profile: 'real' });
    expect(await proxy.stop()).toBe(130);
  });
});
