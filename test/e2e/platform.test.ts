import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, type Json } from '../helpers/cli.js';

const listeningOf = (o: Json): boolean => o.type === 'listening';

/** `listen --fail-first N` and a `platform` delivering to it (under `path`), both at scale 0.1. */
async function startPair(failFirst: number, path = '', extra: string[] = []) {
  const scale = ['--json', '--time-scale', '0.1'];
  const listen = spawnCli([...scale, 'listen', '--port', '0', '--fail-first', String(failFirst)]);
  const listenUrl = (await listen.next(listeningOf)).url as string;
  const platform = spawnCli([
    ...scale,
    'platform',
    '--port',
    '0',
    ...extra,
    '--integrator-url',
    `${listenUrl}${path}`,
  ]);
  const listening = await platform.next(listeningOf);
  const channelUrl = (listening.channels as Json[])[0]!.url as string;
  return { listen, platform, channelUrl };
}

describe('svc-cli platform + listen + send-text (spawned)', () => {
  it('delivers an agent message typed on the console to `listen --fail-first 2` on attempt 3', async () => {
    const { listen, platform, channelUrl } = await startPair(2, '/agent-messages', [
      '--channel-id',
      'shop',
    ]);
    expect(channelUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{22}\/shop$/);

    const send = spawnCli([
      '--json',
      'send-text',
      'Hello',
      '--channel-url',
      channelUrl,
      '--sender-id',
      'c-42',
      '--name',
      'Ann',
    ]);
    expect(await send.exit).toBe(0);
    expect(send.lines[0]).toMatchObject({ type: 'sent', status: 200 });
    await platform.next((o) => o.type === 'customer-message' && o.customerId === 'c-42');

    platform.child.stdin.write('Hi Ann, how can I help?\n');
    const done = await platform.next((o) => o.type === 'delivery-done');
    expect(done).toMatchObject({ result: 'delivered', attempts: 3 });
    const attempts = platform.lines
      .filter((o) => o.type === 'delivery-attempt')
      .map((o) => o.outcome);
    expect(attempts).toEqual(['rejected', 'rejected', 'accepted']);
    const received = await listen.next((o) => o.type === 'agent-message' && o.attempt === 3);
    expect(received).toMatchObject({
      channel: 'shop',
      kind: 'channel.agent.text',
      reply: { status: 200 },
    });

    platform.child.kill('SIGINT');
    listen.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
    expect(await listen.exit).toBe(130);
  });

  it('ends with the agent-visible error at protocol 9 s after three failures', async () => {
    const { platform, channelUrl } = await startPair(3);
    const send = spawnCli(['send-text', 'Hi', '--channel-url', channelUrl, '--sender-id', 'c-1']);
    expect(await send.exit).toBe(0);
    await platform.next((o) => o.type === 'customer-message');
    platform.child.stdin.write('@c-1 are you there?\n');
    const done = await platform.next((o) => o.type === 'delivery-done');
    expect(done).toMatchObject({ result: 'failed', attempts: 3 });
    expect(done.elapsedMs as number).toBeGreaterThanOrEqual(9000);
    platform.child.kill('SIGTERM');
    expect(await platform.exit).toBe(143);
  });

  it('prints a human banner with the channel URL and rejects a bad flag with exit 2', async () => {
    const human = spawnCli(['platform', '--port', '0']);
    const banner = await human.next(
      (o) => o.type === 'text' && String(o.line).includes('channel URL'),
    );
    expect(String(banner.line)).toMatch(/channel URL\s+http:\/\/127\.0\.0\.1:\d+\/\S+\/\S+/);
    human.child.kill('SIGINT');
    expect(await human.exit).toBe(130);

    const bad = spawnCli(['platform', '--integrator-url', 'ftp://example.com']);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain('must be an http(s) URL');
    expect(bad.stderr()).not.toContain('    at ');

    // a channel URL that would reach no channel (spec 4.1: one path segment each)
    const spaced = spawnCli(['platform', '--port', '0', '--channel-id', 'sh op']);
    expect(await spaced.exit).toBe(2);
    expect(spaced.stderr()).toContain(
      'Could not use --channel-id "sh op": it is one segment of the channel URL (spec 4.1)',
    );
    const slashed = spawnCli(['platform', '--port', '0', '--random-string', 'a/b']);
    expect(await slashed.exit).toBe(2);
    expect(slashed.stderr()).toContain('Could not use --random-string "a/b"');
  });

  it("widget's banner puts its three URLs in one column under its title", async () => {
    const widget = spawnCli(['widget', '--port', '0']);
    await widget.next((o) => o.type === 'text' && String(o.line).startsWith('  simulator'));
    const text = widget.lines.map((o) => String(o.line));
    expect(text[0]).toBe('svc widget');
    const rows = text.slice(1, 4);
    expect(rows.map((l) => l.replace(/http\S+/, 'URL'))).toEqual([
      '  demo page      URL',
      '  agent console  URL',
      '  simulator      URL (started here)',
    ]);
    widget.child.kill('SIGINT');
    await widget.exit;
  });

  it('--run-id numbers chats and clients from it, so a restart does not reuse chat 1', async () => {
    const platform = spawnCli(['--json', 'platform', '--port', '0', '--run-id', '42']);
    const listening = await platform.next(listeningOf);
    const channelUrl = (listening.channels as Json[])[0]!.url as string;
    const sent = await fetch(channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    expect(sent.status).toBe(200);
    const { chats } = (await (await fetch(`${String(listening.controlUrl)}/chats`)).json()) as {
      chats: Array<{ id: number; customer: { clientId: string } }>;
    };
    expect(chats.map((c) => [c.id, c.customer.clientId])).toEqual([[42001, '42501']]);
    platform.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
  });

  it('--quiet prints no line per good message while --record still journals every exchange', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-quiet-'));
    const journal = join(dir, 'session.ndjson');
    const quiet = spawnCli(['--json', 'platform', '--port', '0', '--quiet', '--record', journal]);
    const listening = await quiet.next(listeningOf);
    const channelUrl = (listening.channels as Json[])[0]!.url as string;
    const post = (body: unknown) =>
      fetch(channelUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    expect(await post({ sender: { id: 'c-1' }, message: { type: 'text', text: 'one' } })).toBe(200);
    expect(await post({ sender: { id: 'c-2' }, message: { type: 'text', text: 'two' } })).toBe(200);
    expect(await post({ sender: { id: '' }, message: { type: 'text', text: 'bad' } })).toBe(400);
    quiet.child.kill('SIGINT');
    expect(await quiet.exit).toBe(130);
    // the two good messages print nothing; the broken one is still shown
    expect(quiet.lines.map((o) => o.type)).toEqual(['listening', 'violation']);
    const recorded = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { response: { status: number } });
    expect(recorded.map((r) => r.response.status)).toEqual([200, 200, 400]);
  });

  it('--json --quiet stops without the info summary on stderr; without --quiet it is kept', async () => {
    // --quiet promises start-up lines, warnings and errors; "stopped; 0 exchanges" was an
    // info notice on stderr at every stop of a scripted run
    for (const command of [['platform', '--no-console'], ['listen'], ['bot-sim', '--token', 't']]) {
      const quiet = spawnCli(['--json', ...command, '--port', '0', '--quiet']);
      await quiet.next(listeningOf);
      quiet.child.kill('SIGINT');
      expect(await quiet.exit).toBe(130);
      expect(quiet.stderr(), command[0]).toBe('');
    }
    const loud = spawnCli(['--json', 'platform', '--port', '0', '--no-console']);
    await loud.next(listeningOf);
    loud.child.kill('SIGINT');
    expect(await loud.exit).toBe(130);
    expect(loud.stderr()).toContain('"message":"stopped; 0 exchanges"');
  });

  it('listen --quiet drops good requests but still prints a contract violation', async () => {
    const listen = spawnCli(['--json', 'listen', '--port', '0', '--quiet']);
    const url = (await listen.next(listeningOf)).url as string;
    const post = (body: unknown) =>
      fetch(`${url}/shop`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status);
    const good = { message: { id: 'm-1', type: 'text', text: 'Hi' }, recipient: { id: 'c-1' } };
    expect(await post(good)).toBe(200);
    await post({ message: { id: 'm-2', type: 'text' }, recipient: { id: 'c-1' } }); // no text
    const shown = await listen.next((o) => o.type !== 'listening');
    expect(shown).toMatchObject({ type: 'agent-message', verdict: { ok: false } });
    listen.child.kill('SIGINT');
    expect(await listen.exit).toBe(130);
    expect(listen.lines.map((o) => o.type)).toEqual(['listening', 'agent-message']);
  });
});
