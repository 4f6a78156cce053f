import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { customerText, postTo } from '../helpers/bot.js';
import { freePort } from '../helpers/free-port.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- NDJSON lines are read freely in tests */
const BIN = fileURLToPath(new URL('../../bin/svc-cli.js', import.meta.url));

interface Running {
  child: ChildProcessWithoutNullStreams;
  lines: any[];
  /** Resolves with the first NDJSON line (past or future) that matches. */
  waitFor(pred: (line: any) => boolean): Promise<any>;
  exit: Promise<number | null>;
}

const running: Running[] = [];
afterEach(() => {
  for (const r of running.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
});

function run(args: string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe' });
  const lines: any[] = [];
  const waiters: Array<{ pred: (l: any) => boolean; resolve: (l: any) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text);
    lines.push(line);
    for (const w of [...waiters])
      if (w.pred(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const r: Running = {
    child,
    lines,
    exit,
    waitFor: (pred) => {
      const past = lines.find(pred);
      return past
        ? Promise.resolve(past)
        : new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
  running.push(r);
  return r;
}

describe('e2e: platform + bot-sim, spawned', () => {
  it('a customer message goes to bot-sim and its answer back to the customer; SIGINT exits 130', async () => {
    const botPort = await freePort();
    // 0.5 on both sides: nothing here waits for a timer, and each side's reply budget (1.5 s)
    // outlasts a turn on a 2-core machine with a CPU hog on both cores (at 0.1, 300 ms did not)
    const platform = run([
      '--json',
      '--time-scale',
      '0.5',
      'platform',
      '--port',
      '0',
      '--no-console',
      '--bot-provider-url',
      `http://127.0.0.1:${botPort}`,
      '--bot-token',
      'e2e-token',
      '--provider-id',
      'acme',
    ]);
    const listening = await platform.waitFor((l) => l.type === 'listening');
    expect(listening.bot).toEqual({
      providerUrl: `http://127.0.0.1:${botPort}/<token>`,
      webhookUrl: `${listening.url}/webhooks/acme/<token>`,
      providersUrl: `${listening.url}/providers/acme/<token>`,
    });
    const bot = run([
      '--json',
      '--time-scale',
      '0.5',
      'bot-sim',
      '--port',
      String(botPort),
      '--platform-url',
      listening.url,
      '--token',
      'e2e-token',
      '--provider-id',
      'acme',
    ]);
    const botListening = await bot.waitFor(() => true);
    expect(botListening).toMatchObject({ type: 'listening', url: `http://127.0.0.1:${botPort}` });

    const res = await postTo(listening.channels[0].url, customerText('menu'));
    expect(res.status).toBe(200);
    expect(await bot.waitFor((l) => l.type === 'bot-received')).toMatchObject({
      event: 'CLIENT_MESSAGE',
      text: 'menu',
      reply: { status: 200 },
      rule: 'menu',
    });
    expect(await bot.waitFor((l) => l.type === 'bot-sent')).toMatchObject({
      event: 'BOT_MESSAGE',
      messageType: 'BUTTONS',
      status: 200,
    });
    expect(await platform.waitFor((l) => l.type === 'bot-message')).toMatchObject({
      messageType: 'BUTTONS',
      fallback: true,
      sender: 'Bot',
    });
    expect(await platform.waitFor((l) => l.type === 'bot-event-sent')).toMatchObject({
      event: 'CLIENT_MESSAGE',
      result: 'delivered',
      attempts: 1,
    });

    bot.child.kill('SIGINT');
    platform.child.kill('SIGINT');
    expect(await bot.exit).toBe(130);
    expect(await platform.exit).toBe(130);
  });

  it('bot-sim --silent: the platform hands the customer over after two attempts', async () => {
    const bot = run(['--json', 'bot-sim', '--port', '0', '--silent', '--token', 't']);
    const botListening = await bot.waitFor((l) => l.type === 'listening');
    const platform = run([
      '--json',
      '--time-scale',
      '0.01',
      'platform',
      '--port',
      '0',
      '--no-console',
      '--bot-provider-url',
      botListening.url,
      '--bot-token',
      't',
    ]);
    const listening = await platform.waitFor((l) => l.type === 'listening');
    await postTo(listening.channels[0].url, customerText('hello?'));
    const handover = await platform.waitFor((l) => l.type === 'bot-handover');
    expect(handover).toMatchObject({
      chatId: 1,
      reason: 'no regular answer from the bot in 2 attempts (timeout after 3000 ms)',
      to: 'agent',
    });
    expect(handover.protocolMs).toBeGreaterThanOrEqual(6000);
    const attempts = platform.lines.filter(
      (l) => l.type === 'delivery-attempt' && l.target === 'bot',
    );
    expect(attempts.slice(0, 2).map((a): unknown[] => [a.attempt, a.outcome])).toEqual([
      [1, 'rejected'],
      [2, 'rejected'],
    ]);
    expect(attempts[1].offsetMs).toBeGreaterThanOrEqual(3000);
    platform.child.kill('SIGINT');
    bot.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
    expect(await bot.exit).toBe(130);
  });
});

describe('e2e: bot-sim --script with a typo', () => {
  it('a rule key "mach" for "match" is exit 2 naming the file, the key path and "match"', async () => {
    const shop = readFileSync(`${repoRoot}/fixtures/bots/shop.json`, 'utf8');
    const typo = shop.replace('"match"', '"mach"');
    expect(typo).not.toBe(shop);
    const file = `${mkdtempSync(`${tmpdir()}/bot-typo-`)}/shop.json`;
    writeFileSync(file, typo);
    const run = await runCli(['bot-sim', '--script', file, '--port', '0', '--host', '127.0.0.1']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `error [SVC_E_BOT_SCRIPT] Could not use the bot script ${file}: rules.0.mach: unknown key (did you mean "match"?).`,
    );
  });
});

describe('e2e: bot-sim --script fixtures/... outside a clone', () => {
  it('serves the rules svc-cli ships under that name, and says so', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-newcomer-'));
    const script = 'fixtures/bots/shop.json';
    const child = spawn(process.execPath, [BIN, 'bot-sim', '--port', '0', '--script', script], {
      cwd: empty,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = once(child, 'close');
    // the listening line, or '' when it exits first (the script was not found: exit 2)
    const first = await Promise.race([
      once(createInterface({ input: child.stdout }), 'line').then(([line]) => String(line)),
      exit.then(() => ''),
    ]);
    child.kill('SIGINT');
    await exit;
    expect(first, err).toContain('listening');
    expect(err).toContain(
      `--script: no ${script} here; using the one shipped with svc-cli, ${join(repoRoot, script)}`,
    );
  });
});
