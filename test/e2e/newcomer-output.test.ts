import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli, type Json } from '../helpers/cli.js';

/** A human-mode platform's stdout line that holds `text`. */
const lineWith = (text: string) => (o: Record<string, unknown>) =>
  o.type === 'text' && String(o.line).includes(text);

describe('what a newcomer reads', () => {
  it('platform with stdin that ends at once: banner first, no typing offered, 80 columns', async () => {
    // stdout and stderr on one pipe, in the order they were written
    const child = spawn(
      'sh',
      ['-c', `exec "${process.execPath}" "${BIN}" platform --port 0 </dev/null 2>&1`],
      {
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    while (!output.includes('console closed')) await once(child.stdout, 'data');
    child.kill('SIGINT');
    await once(child, 'exit');
    expect(output.indexOf('control API')).toBeGreaterThan(-1);
    expect(output.indexOf('control API')).toBeLessThan(output.indexOf('console closed'));
    expect(output).not.toContain('Type to answer');
    const banner = output.slice(0, output.indexOf('console closed')).split('\n');
    for (const line of banner) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(banner.some((l) => l.trim() === '(secret: keep it private)')).toBe(true);
  }, 60_000);

  it('platform with a bot: every banner line within 80 columns, the notes under the URLs', async () => {
    const platform = spawnCli([
      'platform',
      '--port',
      '0',
      '--bot-provider-url',
      'http://127.0.0.1:9100',
      '--bot-token',
      'dev-bot-token',
      '--bot-events',
      'docs',
    ]);
    await platform.next(lineWith('hooks '));
    const banner = platform.lines.map((o) => String(o.line));
    for (const line of banner) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(banner).toContain('                (needs --bot-client-id/--bot-client-secret)');
    expect(banner).toContain('                (+ CHAT_CLOSED, CLIENT_INFO of the public Bot API)');
    platform.child.kill('SIGINT');
    await platform.exit;
  }, 60_000);

  it('/chats and the stop notice count in singular for one', async () => {
    const platform = spawnCli(['platform', '--port', '0']);
    const channel = await platform.next(lineWith('channel URL'));
    const url = /http:\/\/\S+/.exec(String(channel.line))?.[0] ?? '';
    platform.child.stdin.write('/chats\n');
    const none = await platform.next(
      (o) => o.type === 'text' && String(o.line).includes('no chats'),
    );
    expect(String(none.line)).toContain('no chats yet');
    const send = spawnCli(['send-text', 'Hi', '--channel-url', url, '--sender-id', 'c-1']);
    expect(await send.exit).toBe(0);
    platform.child.stdin.write('/chats\n');
    const chat = await platform.next(
      (o) => o.type === 'text' && String(o.line).startsWith('  chat '),
    );
    expect(String(chat.line)).toMatch(/c-1 {2}\w+ {2}1 line$/);
    platform.child.kill('SIGINT');
    await platform.exit;
    expect(platform.stderr()).toMatch(/stopped; \d+ exchanges?/);
    expect(platform.stderr()).not.toMatch(/stopped; 1 exchanges/);
  }, 60_000);

  it('--json: /help on stderr, as the console errors are, /chats as an NDJSON object', async () => {
    const platform = spawnCli(['--json', 'platform', '--port', '0']);
    const listening = await platform.next((o) => o.type === 'listening');
    const [channel] = listening.channels as { url: string }[];
    platform.child.stdin.write('/help\n');
    while (!platform.stderr().includes('Ctrl-C stops the platform.'))
      await once(platform.child.stderr, 'data');
    const notices = platform
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    expect(notices).toContainEqual({
      type: 'notice',
      level: 'info',
      message: expect.stringMatching(/^Agent console — type a line/) as string,
    });
    platform.child.stdin.write('/chats\n');
    expect(await platform.next((o) => o.type === 'console-chats')).toEqual({
      type: 'console-chats',
      chats: [],
    });
    const send = spawnCli(['send-text', 'Hi', '--channel-url', channel!.url, '--sender-id', 'c-1']);
    expect(await send.exit).toBe(0);
    platform.child.stdin.write('/chats\n');
    expect(
      await platform.next((o) => o.type === 'console-chats' && (o.chats as unknown[]).length > 0),
    ).toEqual({
      type: 'console-chats',
      chats: [{ chatId: 1, customerId: 'c-1', mode: expect.any(String) as string, lines: 1 }],
    });
    // stdout stays NDJSON: every line an object with a type
    expect(platform.lines.every((o) => typeof o.type === 'string' && o.type !== 'text')).toBe(true);
    platform.child.kill('SIGINT');
    await platform.exit;
  }, 60_000);

  it('bot-sim --quiet prints no bot-events line', async () => {
    const bot = spawnCli(['bot-sim', '--port', '0', '--quiet', '--token', 't']);
    await bot.next(lineWith('http://'));
    bot.child.kill('SIGINT');
    await bot.exit;
    expect(bot.stderr()).not.toContain('bot events:');
  }, 60_000);
});

/**
 * A platform whose stdout and stderr share one pipe, in the order they were written; its
 * agent console reads what `type` writes.
 */
function platformOnOnePipe() {
  const child = spawn('sh', ['-c', `exec "${process.execPath}" "${BIN}" platform --port 0 2>&1`], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  const until = async (text: string): Promise<string> => {
    while (!output.includes(text)) await once(child.stdout, 'data');
    return output;
  };
  return {
    type: (line: string) => child.stdin.write(`${line}\n`),
    until,
    output: () => output,
    stop: async () => {
      child.kill('SIGINT');
      await once(child, 'exit');
    },
  };
}

describe('what a newcomer types into the agent console', () => {
  it('/quit and /exit say that Ctrl-C stops the platform', async () => {
    const platform = platformOnOnePipe();
    await platform.until('control API');
    platform.type('/quit');
    await platform.until('no /quit here: Ctrl-C stops the platform');
    platform.type('/exit');
    await platform.until('no /exit here: Ctrl-C stops the platform');
    expect(platform.output()).not.toContain('unknown console command');
    await platform.stop();
  }, 60_000);

  it('a reply before any chat: the hint under the error, each line within 80 columns', async () => {
    const platform = platformOnOnePipe();
    await platform.until('control API');
    platform.type('hello');
    const output = await platform.until('A chat starts when');
    expect(output).toContain(
      'Could not find an open chat.\n  A chat starts when a customer sends a message to the channel URL.',
    );
    for (const line of output.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    await platform.stop();
  }, 60_000);

  it('help without its slash: a hint says it was a line to the customer', async () => {
    const platform = platformOnOnePipe();
    await platform.until('control API');
    platform.type('help');
    const output = await platform.until('/help lists the console commands');
    expect(output).toContain(
      '(a plain line answers the customer; /help lists the console commands)',
    );
    await platform.stop();
  }, 60_000);

  it('/help: every line within 80 columns, ending with how to stop', async () => {
    const platform = platformOnOnePipe();
    await platform.until('control API');
    platform.type('/help');
    const output = await platform.until('Ctrl-C stops the platform.');
    const help = output.slice(output.indexOf('Agent console'));
    expect(help).toContain('/media <type> <url>');
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    await platform.stop();
  }, 60_000);
});
