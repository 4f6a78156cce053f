import { describe, expect, it } from 'vitest';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

/** A platform with a bot attached, on a free port, with no console. */
const withBot = [
  'platform',
  '--port',
  '0',
  '--no-console',
  '--bot-provider-url',
  'http://127.0.0.1:9/bot',
];

/** The platform's banner with a bot attached, up to its last bot line; then stopped. */
async function bannerWith(more: string[]): Promise<string> {
  const t = createTestContext({ cwd: process.cwd() });
  const run = runInProcess(t, [
    ...withBot,
    '--bot-token',
    'tok',
    '--integrator-url',
    'http://127.0.0.1:9/agent-messages',
    ...more,
  ]);
  await t.waitForOutput('--show-secrets prints it');
  // the line after the bot's, when there is one, is printed in the same turn
  await new Promise((resolve) => setImmediate(resolve));
  t.abort();
  await run;
  return t.stdout();
}

describe('platform --bot-provider-url: where its chat ids start', () => {
  it('says chats count from 1 and how a bot that keeps state gets fresh ones', async () => {
    // a bot framework's JSONL tracker greeted a restarted simulator's chat 1 as an old chat
    const out = await bannerWith([]);
    expect(out).toContain(
      '\n  (chats count from 1; a bot that keeps state: --run-id <n> starts at <n>001)\n',
    );
  });

  it('says nothing of it with --run-id', async () => {
    expect(await bannerWith(['--run-id', '42'])).not.toContain('chats count from 1');
  });
});

describe('platform --bot-provider-url without --integrator-url', () => {
  it('warns after the banner, not between its lines', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    // what stdout held when the warning reached stderr (a terminal shows both in that order)
    let before: string | undefined;
    t.ctx.stderr.on('data', (d: Buffer | string) => {
      if (before === undefined && String(d).includes('no --integrator-url')) before = t.stdout();
    });
    const run = runInProcess(t, [
      'platform',
      '--port',
      '0',
      '--no-console',
      '--bot-provider-url',
      'http://127.0.0.1:9/bot',
      '--bot-token',
      'tok',
    ]);
    await t.waitForOutput('hooks ');
    await new Promise((resolve) => setImmediate(resolve));
    t.abort();
    await run;
    expect(t.stderr()).toContain('warning: no --integrator-url');
    expect(before).toContain('  hooks         -> off (set --hook-url)');
  });
});

describe('platform --bot-provider-url without --bot-token', () => {
  it("is refused, naming bot-sim's token as the one to give it", async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runInProcess(t, withBot);
    expect(code).toBe(2);
    expect(t.stderr()).toContain('--bot-token is missing');
    expect(t.stderr()).toContain(
      'svc-cli bot-sim serves dev-bot-token unless given --token: --bot-token dev-bot-token',
    );
  });
});
