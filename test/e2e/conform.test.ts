import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener } from '../../src/roles/integrator/index.js';
import { closePeers, deadPeerUrl, json, startPeer } from '../helpers/broken-peers.js';
import { closeRecordedSession, recordSession } from '../helpers/record-session.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnCli } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await closePeers();
  await closeRecordedSession();
});

describe('svc-cli conform integrator', () => {
  it('passes against listen and writes a JUnit report', async () => {
    const listener = await createListener({ clock: createClock() });
    closers.push(() => listener.close(10));
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-'));
    const out = join(dir, 'conform.xml');
    const run = await runCli([
      'conform',
      'integrator',
      '--url',
      listener.url,
      '--reporter',
      'junit',
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('11 passed, 0 failed, 0 skipped');
    const xml = readFileSync(out, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(11);
    expect(xml).toContain('<testsuite name="svc-cli conform integrator" tests="11" failures="0"');
  });

  it('exits 1 against a 500-ing integrator; the reason names the spec', async () => {
    const url = await startPeer((_req, res) => json(res, 500, {}));
    const run = await runCli(['conform', 'integrator', '--url', url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ agent text message');
    expect(run.stdout).toContain(
      'reply: HTTP 500 is not a valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)',
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe('0 passed, 11 failed, 0 skipped');
  });

  it('exits 3 when the integrator is unreachable, 2 without --url', async () => {
    const dead = await runCli(['conform', 'integrator', '--url', await deadPeerUrl()]);
    expect(dead.code).toBe(3);
    expect(dead.stderr).toContain('SVC_E_PEER_UNREACHABLE');
    const missing = await runCli(['conform', 'integrator']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--url is required');
    expect(missing.stderr).toContain(
      'Example: svc-cli conform integrator --url http://127.0.0.1:9000/agent-messages',
    );
    // each suite's example names where its peer listens in the docs
    const bot = await runCli(['conform', 'bot', '--token', 't']);
    expect(bot.code).toBe(2);
    expect(bot.stderr).toContain('Example: svc-cli conform bot --url http://127.0.0.1:9100');
    const unknown = await runCli(['conform', 'nonsense']);
    expect(unknown.code).toBe(2);
  });
});

describe('svc-cli conform --strict', () => {
  /** An integrator that answers an error object: a valid reply, passed with a warning. */
  const startErrorObjectPeer = () =>
    startPeer((_req, res) => json(res, 200, { error: { code: 1, message: 'no agent' } }));

  it('without it, a warning passes: exit 0, and JUnit shows it on the passing testcase', async () => {
    const url = await startErrorObjectPeer();
    const run = await runCli(['conform', 'integrator', '--url', url, '--reporter', 'junit']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('failures="0"');
    const text = /<testcase name="agent text message"[\s\S]*?<\/testcase>/.exec(run.stdout)?.[0];
    expect(text).toContain(
      '<property name="warning" value="Content-Length body: warning: the endpoint answered an error object (1: &quot;no agent&quot;)',
    );
    // marked as the terminal marks it, not as a clean pass
    expect(text).toContain('! Content-Length body [');
    expect(text).not.toContain('✓ Content-Length body');
  });

  it('a warning fails its check: exit 1, said so in pretty, json and junit', async () => {
    const url = await startErrorObjectPeer();
    const pretty = await runCli(['conform', 'integrator', '--url', url, '--strict']);
    expect(pretty.code).toBe(1);
    expect(pretty.stdout).toContain('✗ Content-Length body');
    expect(pretty.stdout).toContain(
      'warning, a failure with --strict: the endpoint answered an error object (1: "no agent")',
    );
    expect(pretty.stdout.trim().split('\n').at(-1)).toBe(
      '0 passed, 11 failed, 0 skipped, 22 warnings failed with --strict',
    );
    const json = await runCli(['conform', 'integrator', '--url', url, '--strict', '--json']);
    expect(json.code).toBe(1);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({
      type: 'summary',
      failed: 11,
      strict: true,
      strictFailures: 22,
    });
    const junit = await runCli([
      'conform',
      'integrator',
      '--url',
      url,
      '--strict',
      '--reporter',
      'junit',
    ]);
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain('failures="11"');
    expect(junit.stdout).toContain(
      '<failure message="Content-Length body: warning, a failure with --strict: the endpoint answered an error object',
    );
  });

  it('is read from svc.config.json', async () => {
    const url = await startErrorObjectPeer();
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-strict-'));
    writeFileSync(
      join(dir, 'svc.config.json'),
      JSON.stringify({ version: 1, commands: { conform: { strict: true } } }),
    );
    const run = await runCli(['conform', 'integrator', '--url', url], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('warning, a failure with --strict');
  });
});

describe('svc-cli conform hooks', () => {
  it('prints NDJSON cases and a summary with --reporter json', async () => {
    const target = await createHookTarget({ clock: createClock() });
    closers.push(() => target.close(10));
    const run = await runCli(['conform', 'hooks', '--url', target.url, '--reporter', 'json']);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; name?: string });
    expect(lines.filter((l) => l.type === 'case')).toHaveLength(7);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', suite: 'hooks', passed: 7, failed: 0 });
  });

  it('--events checks only the events named: an account without calls never sends call_event', async () => {
    const target = await createHookTarget({ clock: createClock() });
    closers.push(() => target.close(10));
    const events = 'chat_accepted,chat_updated,chat_assigned,chat_finished,offline_message';
    const run = await runCli([
      'conform',
      'hooks',
      '--url',
      target.url,
      '--reporter',
      'json',
      '--events',
      events,
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; name?: string });
    // offline_message takes its other spelling along (spec 6.2 note)
    expect(lines.filter((l) => l.type === 'case').map((l) => l.name)).toEqual([
      'chat_accepted',
      'chat_updated',
      'chat_assigned',
      'chat_finished',
      'offline_message',
      'offline_messages (the field table spelling)',
    ]);
    const typo = await runCli([
      'conform',
      'hooks',
      '--url',
      target.url,
      '--events',
      'chat_acepted',
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'error [SVC_E_FLAG] Could not use --events: "chat_acepted" is not a hook event (spec 6.2). Did you mean "chat_accepted"?',
    );
    // an empty CI variable: a gate that runs nothing must not pass
    const empty = await runCli(['conform', 'hooks', '--url', target.url, '--events', ' , ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(
      'error [SVC_E_FLAG] Could not use --events: it names no event, so no case would run.',
    );
    expect(empty.stdout).toBe('');
    // a client event of the public Webhooks page without --profile docs: a run of nothing
    const docsOnly = await runCli([
      'conform',
      'hooks',
      '--url',
      target.url,
      '--events',
      'client_updated',
    ]);
    expect(docsOnly.code).toBe(2);
    expect(docsOnly.stderr).toContain(
      'error [SVC_E_FLAG] Could not use --events client_updated: it is an event of the public Webhooks page, beyond spec 6.2, and --profile spec does not send it, so no case would run for it.\n  Add --profile docs to run it (docs/FIDELITY.md).',
    );
    expect(docsOnly.stdout).toBe('');
  });

  it('--reporter json --out writes the lines stdout would: the cases, then summary', async () => {
    const target = await createHookTarget({ clock: createClock() });
    closers.push(() => target.close(10));
    const out = join(mkdtempSync(join(tmpdir(), 'svc-conform-')), 'c.ndjson');
    const args = ['conform', 'hooks', '--url', target.url, '--reporter', 'json'];
    const written = await runCli([...args, '--out', out]);
    const printed = await runCli(args);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(written.stderr).toContain(`report written to ${out}: 7 passed, 0 failed, 0 skipped`);
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; name?: string });
    const inFile = lines(readFileSync(out, 'utf8'));
    const onStdout = lines(printed.stdout);
    expect(inFile.map((l) => [l.type, l.name])).toEqual(onStdout.map((l) => [l.type, l.name]));
    expect(inFile.at(-1)).toEqual(onStdout.at(-1));
    expect(inFile.at(-1)).toMatchObject({ type: 'summary', suite: 'hooks', passed: 7, total: 7 });
  });

  it('says plainly that no invariant applies to a hook receiver', async () => {
    const target = await createHookTarget({ clock: createClock() });
    closers.push(() => target.close(10));
    const run = await runCli(['conform', 'hooks', '--url', target.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^invariants: none applies to this peer \(\d+ judge what svc-cli sends: docs\/trace\.md\)$/m,
    );
    expect(run.stdout).not.toContain('0 checked');
  });

  it('exits 1 with a JUnit failure for a bad chat_accepted reply', async () => {
    const url = await startPeer((_req, res, body) => {
      const event = (JSON.parse(body) as { event_name: string }).event_name;
      json(
        res,
        200,
        event === 'chat_accepted' ? { result: 'ok', custom_data: 'x' } : { result: 'ok' },
      );
    });
    const run = await runCli(['conform', 'hooks', '--url', url, '--reporter', 'junit']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('failures="1"');
    expect(run.stdout).toMatch(
      /<failure message="reply matches hook.chat_accepted.reply: reply: custom_data: .*\(spec 6\.2\)"/,
    );
  });
});

describe('svc-cli conform bot', () => {
  it('passes against a spawned bot-sim pointed at the fixed --platform-listen-port', async () => {
    // bot-sim needs the platform URL at start: the test picks the embedded platform's port.
    // Both at scale 1: the bot answers within 3 s of wall time, not 300 ms (beside other work
    // a spawned bot-sim at 0.1 missed it once; docs/TESTING.md)
    const port = await freePort();
    const bot = spawnCli([
      '--json',
      'bot-sim',
      '--port',
      '0',
      '--token',
      'e2e-token',
      '--provider-id',
      'acme',
      '--platform-url',
      `http://127.0.0.1:${port}`,
    ]);
    const listening = await bot.next((l) => l.type === 'listening');
    const run = await runCli([
      'conform',
      'bot',
      '--url',
      String(listening.url),
      '--token',
      'e2e-token',
      '--provider-id',
      'acme',
      '--platform-listen-port',
      String(port),
      '--reporter',
      'json',
    ]);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toEqual({
      type: 'listening',
      url: `http://127.0.0.1:${port}`,
      webhookUrl: `http://127.0.0.1:${port}/webhooks/acme/<token>`,
      providersUrl: `http://127.0.0.1:${port}/providers/acme/<token>`,
      runId: expect.any(Number),
      firstChatId: expect.any(Number),
    });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', suite: 'bot', passed: 6, failed: 0 });
    expect(run.code).toBe(0);
  });

  it('exits 1 against a bot that answers 500; 2 without --token', async () => {
    const url = await startPeer((_req, res) => json(res, 500, {}));
    const run = await runCli([
      'conform',
      'bot',
      '--url',
      url,
      '--token',
      't',
      '--answer-within',
      '1s',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^bot service listening at http:\/\/127\.0\.0\.1:\d+: point the bot at /,
    );
    expect(run.stdout).toContain(
      'CLIENT_MESSAGE answered HTTP 500 {}; the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8)',
    );
    expect(run.stdout).toContain('warning: answered HTTP 500');
    // --answer-within takes a unit, as --timeout does
    expect(run.stdout).toContain('within 1000 ms of the CLIENT_MESSAGE');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('1 passed, 5 failed, 0 skipped, 1 warning');
    const missing = await runCli(['conform', 'bot', '--url', url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--token is required');
  });
});

describe('svc-cli record to-fixture', () => {
  it('turns a recording into a conversation that replay runs green (-o is --out)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-to-fixture-'));
    const recording = join(dir, 'session.ndjson');
    await recordSession(recording);
    const fixture = join(dir, 'session.json');
    const convert = await runCli(['record', 'to-fixture', recording, '-o', fixture]);
    expect(convert.code).toBe(0);
    expect(convert.stderr).toMatch(/conversation written to .*session\.json: \d+ steps/);
    const written = JSON.parse(readFileSync(fixture, 'utf8')) as { $schema?: string; name: string };
    expect(written.name).toBe('recorded session');
    // outside this tree and with no svc-cli installed there: no path into this checkout
    expect(written.$schema).toBeUndefined();
    // the integrator's 503 is kept: said, with the way to a fixture for a fixed integrator
    expect(convert.stderr).toContain(
      'holds 1 refused delivery attempt by the integrator: the conversation expects it again',
    );
    expect(convert.stderr).toContain('--peer-failures drop');
    const replay = await runCli(['replay', fixture]);
    expect(replay.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    expect(replay.code).toBe(0);
    const healthy = join(dir, 'healthy.json');
    const dropped = await runCli([
      'record',
      'to-fixture',
      recording,
      '-o',
      healthy,
      '--peer-failures',
      'drop',
    ]);
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).not.toContain('refused delivery attempt');
    expect(readFileSync(healthy, 'utf8')).not.toContain('status:503');
    const stdout = await runCli(['record', 'to-fixture', recording]);
    expect(JSON.parse(stdout.stdout)).toMatchObject({
      version: 1,
      $schema: '../../schemas/conversation.schema.json',
    });
  });

  it('exits 2 for a file that is not a recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-to-fixture-'));
    const file = join(dir, 'x.ndjson');
    writeFileSync(file, '{"hello":1}\n{"x":2}\n');
    const run = await runCli(['record', 'to-fixture', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SVC_E_RECORDING');
  });

  it('names a conversation fixture as one, and says to replay it (exit 2), as trace does', async () => {
    const fixture = 'fixtures/conversations/transcript-redelivered.json';
    const run = await runCli(['record', 'to-fixture', fixture]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `[SVC_E_RECORDING] Could not read ${fixture} as a journal: this is a conversation fixture, not a recording: replay it with --record <file> and convert that.`,
    );
    expect(run.stderr).not.toContain('is not JSON');
    expect(run.stdout).toBe('');
  });
});
