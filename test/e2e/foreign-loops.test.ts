/**
 * The loops that bring a user's own peer in, against peers written as third parties write
 * them (test/peers/: Flask with SQLite, Python's standard library, PHP under php -S, plain
 * node:http): record through `svc-cli proxy` between the simulator and the peer, `record
 * to-fixture`, `replay --hook-url / --bot-url / --integrator-url` against the same peer
 * (green), then against the peer switched to misbehave (red); `conform hooks` and `conform
 * integrator` twice against a stateful peer; replay twice against a bot that greets new chats
 * (fresh chat ids); `conform bot --fuzz` and its repro as printed. Each suite skips with one
 * line when its tool is missing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnCli, type CliRun } from '../helpers/cli.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import {
  NO_FLASK,
  NO_PHP,
  NO_PYTHON,
  hasFlask,
  hasPhp,
  hasPython,
  removeForeignState,
  startForeignPeer,
  type ForeignPeer,
  type ForeignPeerKind,
} from '../helpers/foreign-peer.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

const SCALE = '0.2';
const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
afterAll(removeForeignState);

async function peer(
  kind: ForeignPeerKind,
  mode: string,
  stateDir?: string,
  env?: Record<string, string>,
): Promise<ForeignPeer> {
  const started = await startForeignPeer({
    kind,
    mode,
    ...(stateDir ? { stateDir } : {}),
    ...(env ? { env } : {}),
  });
  stops.push(() => started.stop());
  return started;
}

async function server(args: string[]): Promise<CliServer> {
  const started = await startCliServer(['--json', ...args]);
  stops.push(() => started.stop());
  return started;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

/** Waits for the platform's NDJSON line of the hook reply to `event` (no sleeping). */
function hookReply(platform: CliRun, event: string): Promise<unknown> {
  return platform.next((o) => o.type === 'hook-reply' && o.event === event);
}

/**
 * One session recorded through `proxy hooks` between the simulator and the receiver: a
 * customer writes, an agent answers (chat_accepted), the visitor's data changes
 * (chat_updated), the CRM link is pressed (chat_assigned), the chat is closed
 * (chat_finished), agents go offline and an offline form comes (offline_message).
 */
async function recordSession(
  receiverUrl: string,
  dir: string,
  /** press the CRM link (needs a receiver whose chat_accepted reply gives one) */
  assign = true,
): Promise<{ platform: string; proxy: string }> {
  const recordings = { platform: join(dir, 'platform.ndjson'), proxy: join(dir, 'proxy.ndjson') };
  const proxy = await server([
    'proxy',
    'hooks',
    '--port',
    '0',
    '--receiver-url',
    receiverUrl,
    '--record',
    recordings.proxy,
  ]);
  const listen = await server(['listen', '--port', '0']);
  const platform = spawnCli([
    '--json',
    '--time-scale',
    SCALE,
    'platform',
    '--port',
    '0',
    '--no-console',
    '--integrator-url',
    listen.listening.url,
    '--hook-url',
    `${proxy.listening.url}/hooks`,
    '--record',
    recordings.platform,
  ]);
  const listening = (await platform.next((o) => o.type === 'listening')) as { url: string };
  const state = (await (await fetch(`${listening.url}/_sim/state`)).json()) as {
    channels: Array<{ url: string }>;
  };
  const channel = state.channels[0]!.url;
  const control = (path: string, body: unknown): Promise<unknown> =>
    post(`${listening.url}${path}`, body);
  await post(channel, {
    sender: { id: 'c-1', name: 'Ann', email: 'ann@example.com' },
    message: { type: 'text', text: 'Order 42 is late' },
  });
  await control('/_sim/agent/message', {
    message: { type: 'text', text: 'Let me check.' },
    wait: true,
  });
  await hookReply(platform, 'chat_accepted');
  await post(channel, {
    sender: { id: 'c-1', name: 'Ann Smith', phone: '+49 30 555' },
    message: { type: 'text', text: 'My phone is +49 30 555' },
  });
  await hookReply(platform, 'chat_updated');
  if (assign) {
    await control('/_sim/chats/1/assign', {});
    await hookReply(platform, 'chat_assigned');
  }
  await control('/_sim/chats/1/close', {});
  await hookReply(platform, 'chat_finished');
  await control('/_sim/agents', { online: false });
  await control('/_sim/visitor/offline-message', {
    name: 'Bo',
    email: 'bo@example.com',
    message: 'Call me back',
  });
  await hookReply(platform, 'offline_message');
  platform.child.kill('SIGINT');
  await platform.exit;
  return recordings;
}

async function toFixture(
  recording: string,
  dir: string,
): Promise<{ code: number | null; file: string; stderr: string }> {
  const file = join(dir, 'session.json');
  const out = await runCli(['record', 'to-fixture', recording, '--out', file]);
  return { code: out.code, file, stderr: out.stderr };
}

/**
 * `conform <suite> --fuzz` against a peer with a planted bug, in `cwd`: the svc-cli repro
 * commands it printed (a curl line is not ours to run), each as argv.
 */
async function fuzzRepros(cwd: string, conform: string[]): Promise<string[][]> {
  const fuzzed = await runCli(['conform', ...conform, '--fuzz', '30', '--seed', '3'], { cwd });
  expect(fuzzed.code, fuzzed.stdout + fuzzed.stderr).toBe(1);
  const printed = [...fuzzed.stdout.matchAll(/^\s+reproduce: svc-cli (.+)$/gm)].map((m) =>
    m[1]!.split(' '),
  );
  expect(printed.length, fuzzed.stdout).toBeGreaterThan(0);
  return printed;
}

/** A repro as printed; only the global --time-scale before it shortens protocol waits. */
const runRepro = (argv: string[], cwd: string): ReturnType<typeof runCli> =>
  runCli(['--time-scale', SCALE, ...argv], { cwd });

/**
 * The repro as printed is red against the crashing peer (its output names `redText`), then
 * green against the same kind of peer fixed, on the same port: the printed URL names it.
 */
async function reproRedThenGreen(
  crashing: ForeignPeer,
  kind: ForeignPeerKind,
  argv: string[],
  cwd: string,
  redText: string,
): Promise<void> {
  const red = await runRepro(argv, cwd);
  expect(red.code, red.stdout + red.stderr).toBe(1);
  expect(red.stdout).toContain(redText);
  await crashing.stop();
  const fixed = await startForeignPeer({
    kind,
    mode: 'ok',
    port: crashing.port,
    stateDir: crashing.stateDir,
  });
  stops.push(() => fixed.stop());
  const green = await runRepro(argv, cwd);
  expect(green.code, green.stdout + green.stderr).toBe(0);
}

function replay(file: string, hookUrl: string): ReturnType<typeof runCli> {
  return runCli(['--time-scale', SCALE, 'replay', file, '--hook-url', hookUrl, '--verbose']);
}

function hookLoop(kind: ForeignPeerKind, recordedMode: string, misbehaving: string): void {
  it(`records through proxy hooks, converts, replays green against the same receiver and red once it runs as ${misbehaving}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-loop-'));
    const receiver = await peer(kind, recordedMode);
    const recorded = await recordSession(receiver.url, dir);

    // the proxy's own recording holds the hooks, not what triggered them: refused, one line
    const fromProxy = await toFixture(recorded.proxy, dir);
    expect(fromProxy.code).toBe(2);
    expect(fromProxy.stderr).toContain('as a `proxy hooks` recording holds');

    const fixture = await toFixture(recorded.platform, dir);
    expect(fixture.code, fixture.stderr).toBe(0);
    const converted = JSON.parse(readFileSync(fixture.file, 'utf8')) as { steps: unknown[] };
    // agents going offline before the offline form is kept (else the form is refused, 409)
    expect(converted.steps).toContainEqual({ agents: 'offline' });
    // the receiver's CRM link names the chat: any chat id matches, as a replay numbers its
    // chats afresh (a receiver with a database must not see the recording's chat 1 again)
    expect(readFileSync(fixture.file, 'utf8')).toMatch(/"crm_link": \{\s*"\$regex": "\^https:/);

    const green = await replay(fixture.file, receiver.url);
    expect(green.code, green.stdout + green.stderr).toBe(0);
    expect(green.stdout).toMatch(/expectations: \d+ checked, 0 skipped/);
    expect(green.stdout).toContain(`the hook receiver at ${receiver.url} is yours`);

    await receiver.stop();
    const broken = await peer(kind, misbehaving, receiver.stateDir);
    const red = await replay(fixture.file, broken.url);
    expect(red.code, red.stdout + red.stderr).toBe(1);
    expect(red.stdout).toMatch(/✗ .*expect hook/);
  }, 120_000);
}

describe.skipIf(!hasFlask)(
  `foreign peers: the Flask hook receiver${hasFlask ? '' : ` (skipped: ${NO_FLASK})`}`,
  () => {
    hookLoop('flask-hooks', 'ok', 'crash:chat_finished');

    it('conform hooks --fuzz finds its crash on chat_finished; the repro as printed fails against it and passes once fixed', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'svc-foreign-hooks-fuzz-'));
      const crashing = await peer('flask-hooks', 'crash:chat_finished');
      const repros = await fuzzRepros(cwd, ['hooks', '--url', crashing.url]);
      const fire = repros.find((argv) => argv[0] === 'hook-fire');
      expect(fire?.join(' ')).toMatch(
        /^hook-fire --from \S+chat_finished\S+\.request\.json --url /,
      );
      await reproRedThenGreen(crashing, 'flask-hooks', fire!, cwd, 'HTTP 500');
    }, 120_000);

    it('conform hooks --fuzz finds a bug in the usual offline_message path with each of 20 seeds', async () => {
      const receiver = await peer('flask-hooks', 'callback-bug');
      const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
      const found: number[] = [];
      // two at a time: each run is a second or two of real requests
      const next = async (): Promise<void> => {
        for (let seed = seeds.shift(); seed !== undefined; seed = seeds.shift()) {
          const cwd = mkdtempSync(join(tmpdir(), 'svc-foreign-seeds-'));
          const out = await runCli(
            ['conform', 'hooks', '--url', receiver.url, '--fuzz', '30', '--seed', String(seed)],
            { cwd },
          );
          expect(out.code, `seed ${seed}: ${out.stdout}`).toBe(1);
          expect(out.stdout, `seed ${seed}`).toContain(
            'failure: survives: no 5xx, no reset, no hang (hook.offline_message)',
          );
          found.push(seed);
        }
      };
      await Promise.all([next(), next()]);
      expect(found).toHaveLength(20);
    }, 180_000);

    it('passes conform hooks twice in a row (its state survives between the runs)', async () => {
      const receiver = await peer('flask-hooks', 'ok');
      for (const run of [1, 2]) {
        const out = await runCli(['conform', 'hooks', '--url', receiver.url]);
        expect(out.code, `run ${run}: ${out.stdout}${out.stderr}`).toBe(0);
      }
    });
  },
);

describe('foreign peers: the slow plain node:http receiver', () => {
  // it answers {"data": {...}} after PEER_SLOW_MS; the platform waits 10 s of protocol time for
  // a hook reply (2 s at --time-scale 0.2)
  it('records through proxy hooks, converts, replays green against it and red once it is slower than the hook timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-slow-'));
    const receiver = await peer('node-slow-hooks', 'slow', undefined, { PEER_SLOW_MS: '400' });
    // its chat_accepted reply gives no CRM link: nothing to press
    const recorded = await recordSession(receiver.url, dir, false);
    const fixture = await toFixture(recorded.platform, dir);
    expect(fixture.code, fixture.stderr).toBe(0);
    const converted = JSON.parse(readFileSync(fixture.file, 'utf8')) as { steps: unknown[] };
    expect(converted.steps).toContainEqual({
      expect: {
        hook: expect.objectContaining({
          event_name: 'chat_accepted',
          $reply: { data: { result: 'ok', seen: 1 } },
        }) as unknown,
      },
    });

    const green = await replay(fixture.file, receiver.url);
    expect(green.code, green.stdout + green.stderr).toBe(0);
    expect(green.stdout).toMatch(/expectations: \d+ checked, 0 skipped/);

    await receiver.stop();
    const slower = await peer('node-slow-hooks', 'slow', receiver.stateDir, {
      PEER_SLOW_MS: '2600',
    });
    const red = await replay(fixture.file, slower.url);
    expect(red.code, red.stdout + red.stderr).toBe(1);
    expect(red.stdout).toMatch(/✗ .*expect hook chat_accepted/);
  }, 120_000);
});

/** One agent answer recorded through `proxy channel` between the simulator and `integratorUrl`. */
async function recordIntegratorSession(integratorUrl: string, dir: string): Promise<string> {
  const recording = join(dir, 'platform.ndjson');
  const proxy = await server([
    'proxy',
    'channel',
    '--port',
    '0',
    '--integrator-url',
    integratorUrl,
    '--record',
    join(dir, 'proxy.ndjson'),
  ]);
  const platform = spawnCli([
    '--json',
    '--time-scale',
    SCALE,
    'platform',
    '--port',
    '0',
    '--no-console',
    '--integrator-url',
    `${proxy.listening.url}/integrator`,
    '--record',
    recording,
  ]);
  const listening = (await platform.next((o) => o.type === 'listening')) as { url: string };
  const state = (await (await fetch(`${listening.url}/_sim/state`)).json()) as {
    channels: Array<{ url: string }>;
  };
  await post(state.channels[0]!.url, {
    sender: { id: 'c-i1', name: 'Ann' },
    message: { type: 'text', text: 'Where is my order?' },
  });
  await post(`${listening.url}/_sim/agent/message`, {
    message: { type: 'text', text: 'Checking now.' },
    wait: true,
  });
  platform.child.kill('SIGINT');
  await platform.exit;
  return recording;
}

describe.skipIf(!hasPython)(
  `foreign peers: the Python standard-library integrator${hasPython ? '' : ` (skipped: ${NO_PYTHON})`}`,
  () => {
    it('records through proxy channel, converts, replays --integrator-url green against it (two 503s, then 200) and red once it answers at once', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-integrator-'));
      const cold = await peer('python-integrator', 'cold');
      const recording = await recordIntegratorSession(cold.url, dir);
      const fixture = await toFixture(recording, dir);
      expect(fixture.code, fixture.stderr).toBe(0);
      const converted = JSON.parse(readFileSync(fixture.file, 'utf8')) as { steps: unknown[] };
      // the redelivery series survives the conversion: three attempts, the first two 503
      expect(converted.steps).toContainEqual({
        agent: { text: 'Checking now.', to: 'c-i1' },
        delivery: { result: 'delivered', attempts: 3 },
      });
      for (const attempt of [1, 2])
        expect(converted.steps).toContainEqual({
          expect: {
            integrator: {
              message: { type: 'text', text: 'Checking now.' },
              $attempt: attempt,
              $status: 503,
            },
          },
        });

      const replayIntegrator = (url: string): ReturnType<typeof runCli> =>
        runCli(['--time-scale', SCALE, 'replay', fixture.file, '--integrator-url', url]);
      await cold.stop();
      const restarted = await peer('python-integrator', 'cold', cold.stateDir);
      const green = await replayIntegrator(restarted.url);
      expect(green.code, green.stdout + green.stderr).toBe(0);
      expect(green.stdout).toContain('expectations: 3 checked, 0 skipped');
      expect(green.stdout).toContain(`the integrator at ${restarted.url} is yours`);

      await restarted.stop();
      const warm = await peer('python-integrator', 'ok', cold.stateDir);
      const red = await replayIntegrator(warm.url);
      expect(red.code, red.stdout + red.stderr).toBe(1);
      expect(red.stdout).toContain('attempts: expected 3, got 1');
    }, 120_000);

    it('conform integrator --fuzz finds its crash on photos; the replay repro as printed is red against it and green once fixed', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'svc-foreign-integrator-fuzz-'));
      const crashing = await peer('python-integrator', 'crash:photo');
      const repros = await fuzzRepros(cwd, ['integrator', '--url', crashing.url]);
      const replayed = repros.find((argv) => argv[0] === 'replay');
      expect(replayed?.join(' ')).toMatch(
        /^replay \S+photo\S+\.conversation\.json --integrator-url \S+$/,
      );
      await reproRedThenGreen(
        crashing,
        'python-integrator',
        replayed!,
        cwd,
        'result: expected "delivered", got "failed"',
      );
    }, 120_000);

    it('passes conform integrator twice in a row (its database keeps every message)', async () => {
      const integrator = await peer('python-integrator', 'ok');
      for (const run of [1, 2]) {
        const out = await runCli(['conform', 'integrator', '--url', integrator.url]);
        expect(out.code, `run ${run}: ${out.stdout}${out.stderr}`).toBe(0);
      }
    }, 120_000);
  },
);

describe.skipIf(!hasPhp)(
  `foreign peers: the PHP receiver${hasPhp ? '' : ` (skipped: ${NO_PHP})`}`,
  () => {
    // recorded while it crashed on chat_updated: the 500 is expected again of it, and a fixed
    // receiver (200) is red, as the recording said the receiver answers 500 there
    hookLoop('php-hooks', 'crash:chat_updated', 'ok');
  },
);

/** A customer writes to a bot-attached channel; recorded through `proxy bot` to the Flask bot. */
async function recordBotSession(
  dir: string,
  mode = 'echo',
  text = 'hello bot',
): Promise<{ platform: string; stateDir: string }> {
  const recording = join(dir, 'bot-platform.ndjson');
  const platformPort = await freePort();
  // the bot is configured with the platform URL it posts to (the proxy's /platform), so the
  // proxy's port is chosen before either starts
  const proxyPort = await freePort();
  const bot = await startForeignPeer({
    kind: 'flask-bot',
    mode,
    platformUrl: `http://127.0.0.1:${proxyPort}/platform`,
  });
  stops.push(() => bot.stop());
  const botProxy = await server([
    'proxy',
    'bot',
    '--port',
    String(proxyPort),
    '--platform-url',
    `http://127.0.0.1:${platformPort}`,
    '--provider-url',
    bot.url,
  ]);
  const listen = await server(['listen', '--port', '0']);
  const platform = spawnCli([
    '--json',
    '--time-scale',
    BOT_SCALE,
    'platform',
    '--port',
    String(platformPort),
    '--no-console',
    '--integrator-url',
    listen.listening.url,
    '--bot-provider-url',
    `${botProxy.listening.url}/provider`,
    '--bot-token',
    'conversation-token',
    '--provider-id',
    'conversation-provider',
    '--record',
    recording,
  ]);
  const listening = (await platform.next((o) => o.type === 'listening')) as { url: string };
  const state = (await (await fetch(`${listening.url}/_sim/state`)).json()) as {
    channels: Array<{ url: string }>;
  };
  await post(state.channels[0]!.url, {
    sender: { id: 'c-b1', name: 'Ann' },
    message: { type: 'text', text },
  });
  // the platform's series of the CLIENT_MESSAGE ended (a slow bot gets a second attempt)...
  await platform.next((o) => o.type === 'bot-event-sent' && o.event === 'CLIENT_MESSAGE');
  // ...and the bot's answer reached the customer, or the chat left the bot (INVITE_AGENT, or
  // two failed attempts: spec 3, 8)
  await platform.next(
    (o) => (o.type === 'delivery-done' && o.target === 'integrator') || o.type === 'bot-handover',
  );
  platform.child.kill('SIGINT');
  await platform.exit;
  await bot.stop();
  return { platform: recording, stateDir: bot.stateDir };
}

const BOT_SCALE = '0.5';

/** Replays a recorded bot fixture against the Flask bot (its state kept) running as `mode`. */
async function replayAgainstBot(
  file: string,
  stateDir: string,
  mode: string,
  env?: Record<string, string>,
): Promise<Awaited<ReturnType<typeof runCli>>> {
  const port = await freePort();
  const bot = await startForeignPeer({
    kind: 'flask-bot',
    mode,
    stateDir,
    platformUrl: `http://127.0.0.1:${port}`,
    ...(env ? { env } : {}),
  });
  try {
    return await runCli([
      '--time-scale',
      BOT_SCALE,
      'replay',
      file,
      '--bot-url',
      bot.url,
      '--platform-port',
      String(port),
      '--verbose',
    ]);
  } finally {
    await bot.stop();
  }
}

/**
 * A bot loop: recorded through `proxy bot` while the Flask bot ran as `recorded` (a customer
 * writes `text`), converted, replayed green against the same bot and red once it runs as
 * `misbehaving`; `converted` checks what the conversion kept.
 */
function botLoop(
  recorded: string,
  text: string,
  misbehaving: string,
  converted: (steps: unknown[]) => void,
): void {
  it(`records the ${recorded} bot through proxy bot, converts, replays green against it and red once it runs as ${misbehaving}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), `svc-foreign-bot-${recorded}-`));
    const session = await recordBotSession(dir, recorded, text);
    const fixture = await toFixture(session.platform, dir);
    expect(fixture.code, fixture.stderr).toBe(0);
    converted((JSON.parse(readFileSync(fixture.file, 'utf8')) as { steps: unknown[] }).steps);
    const green = await replayAgainstBot(fixture.file, session.stateDir, recorded);
    expect(green.code, green.stdout + green.stderr).toBe(0);
    expect(green.stdout).toMatch(/expectations: \d+ checked, 0 skipped/);
    const red = await replayAgainstBot(fixture.file, session.stateDir, misbehaving);
    expect(red.code, red.stdout + red.stderr).toBe(1);
    // a failed expectation, by its description or (the first attempt) its name
    expect(red.stdout).toMatch(/✗ \d+\. (expect (bot|event)|client-message-1)/);
  }, 120_000);
}

describe.skipIf(!hasFlask)(
  `foreign peers: the Flask bot${hasFlask ? '' : ` (skipped: ${NO_FLASK})`}`,
  () => {
    it('records through proxy bot, converts, replays green against the same bot and red once it answers a redelivered CLIENT_MESSAGE again', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-bot-'));
      const recorded = await recordBotSession(dir);
      const fixture = await toFixture(recorded.platform, dir);
      expect(fixture.code, fixture.stderr).toBe(0);
      const converted = JSON.parse(readFileSync(fixture.file, 'utf8')) as { steps: unknown[] };
      // the bot's answer is an expectation, not an agent step: no agent wrote it
      expect(converted.steps.some((s) => typeof s === 'object' && s !== null && 'agent' in s)).toBe(
        false,
      );

      const replayPort = await freePort();
      const replayBot = async (mode: string): Promise<Awaited<ReturnType<typeof runCli>>> => {
        const bot = await startForeignPeer({
          kind: 'flask-bot',
          mode,
          stateDir: recorded.stateDir,
          platformUrl: `http://127.0.0.1:${replayPort}`,
          env: { PEER_SLOW_MS: '2500' },
        });
        try {
          return await runCli([
            '--time-scale',
            BOT_SCALE,
            'replay',
            fixture.file,
            '--bot-url',
            bot.url,
            '--platform-port',
            String(replayPort),
            '--verbose',
          ]);
        } finally {
          await bot.stop();
        }
      };
      const green = await replayBot('echo');
      expect(green.code, green.stdout + green.stderr).toBe(0);
      expect(green.stdout).toContain('is yours');
      const red = await replayBot('slow-first,answer-twice');
      expect(red.code, red.stdout + red.stderr).toBe(1);
    }, 120_000);

    // a cold start: the first two requests get 503, so the platform hands the chat over
    botLoop('cold', 'hello bot', 'echo', (steps) => {
      for (const attempt of [1, 2])
        expect(steps).toContainEqual({
          // the first attempt is named: the answer count at the end refers to its id
          ...(attempt === 1 ? { name: 'client-message-1' } : {}),
          expect: {
            bot: {
              event: 'CLIENT_MESSAGE',
              message: { text: 'hello bot' },
              $attempt: attempt,
              $status: 503,
            },
          },
        });
      // no answer came: none is expected
      expect(steps).toContainEqual({
        expect: { answers: { to: '${client-message-1.id}', count: 0 }, within: 7000 },
      });
      expect(steps).toContainEqual({ expect: { event: { type: 'bot-handover' } } });
    });

    // a bot that answers only the texts it knows hands anything else to an agent
    botLoop('faq', 'I want a refund', 'echo', (steps) => {
      expect(steps).toContainEqual({ expect: { event: { type: 'bot-handover' } } });
      expect(JSON.stringify(steps)).not.toContain('bot-message');
    });

    it('replays twice in a row against a bot that greets new chats: fresh chat ids per run (a repeated --run-id goes red)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-welcome-'));
      const recorded = await recordBotSession(dir, 'welcome');
      const fixture = await toFixture(recorded.platform, dir);
      expect(fixture.code, fixture.stderr).toBe(0);
      // the recording's chat was new to the bot: its greeting is what the fixture expects
      expect(readFileSync(fixture.file, 'utf8')).toContain('Welcome! You said: hello bot');
      const replayPort = await freePort();
      const bot = await startForeignPeer({
        kind: 'flask-bot',
        mode: 'welcome',
        stateDir: recorded.stateDir,
        platformUrl: `http://127.0.0.1:${replayPort}`,
      });
      stops.push(() => bot.stop());
      const replayed = (...extra: string[]): ReturnType<typeof runCli> =>
        runCli([
          '--time-scale',
          BOT_SCALE,
          'replay',
          fixture.file,
          '--bot-url',
          bot.url,
          '--platform-port',
          String(replayPort),
          ...extra,
        ]);
      const runIds: string[] = [];
      for (const run of [1, 2]) {
        const out = await replayed();
        expect(out.code, `run ${run}: ${out.stdout}${out.stderr}`).toBe(0);
        const printed = /run id (\d+): fresh chat ids from (\d+)/.exec(out.stdout);
        expect(printed, out.stdout).not.toBeNull();
        expect(printed![2]).toBe(`${printed![1]}001`);
        runIds.push(printed![1]!);
      }
      expect(runIds[0]).not.toBe(runIds[1]);
      // the same ids twice: the bot knows the chat from the first run and greets no more
      const first = await replayed('--run-id', '77');
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toContain(
        'run id 77: fresh chat ids from 77001; --run-id 77 repeats them',
      );
      const repeated = await replayed('--run-id', '77', '--verbose');
      expect(repeated.code, repeated.stdout + repeated.stderr).toBe(1);
      expect(repeated.stdout).toContain('Welcome! You said: hello bot');
    }, 120_000);

    it('a second answer in other words to a redelivered CLIENT_MESSAGE survives the conversion as a count: red', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-count-'));
      // recorded while slow on first attempts: the platform sent the message twice, the bot
      // answered once (it knew the event id the second time)
      const recorded = await recordBotSession(dir, 'welcome,slow-first');
      const fixture = await toFixture(recorded.platform, dir);
      expect(fixture.code, fixture.stderr).toBe(0);
      const steps = (JSON.parse(readFileSync(fixture.file, 'utf8')) as { steps: unknown[] }).steps;
      expect(steps).toContainEqual({
        expect: { answers: { to: '${client-message-1.id}', count: 1 }, within: 7000 },
      });
      expect(steps).toContainEqual(
        expect.objectContaining({
          name: 'client-message-1',
          expect: { bot: expect.objectContaining({ $attempt: 1 }) as unknown },
        }),
      );
      const green = await replayAgainstBot(fixture.file, recorded.stateDir, 'welcome,slow-first');
      expect(green.code, green.stdout + green.stderr).toBe(0);
      // now it answers the redelivery too, and as the chat is known by then, without its
      // greeting: no text is repeated, only the count tells
      const red = await replayAgainstBot(
        fixture.file,
        recorded.stateDir,
        'welcome,slow-first,answer-twice',
      );
      expect(red.code, red.stdout + red.stderr).toBe(1);
      expect(red.stdout).toMatch(
        /it answered 2 times: a redelivered event \(same id\) was answered again[\s\S]*"Welcome! You said: hello bot"[\s\S]*"You said: hello bot"/,
      );
    }, 120_000);

    it('passes conform bot twice in a row against a bot that answers only chats it has not seen; a repeated --run-id fails', async () => {
      const platformPort = await freePort();
      const bot = await startForeignPeer({
        kind: 'flask-bot',
        mode: 'greeter',
        platformUrl: `http://127.0.0.1:${platformPort}`,
      });
      stops.push(() => bot.stop());
      const conform = (...extra: string[]): ReturnType<typeof runCli> =>
        runCli([
          'conform',
          'bot',
          '--url',
          bot.url,
          '--token',
          'conversation-token',
          '--provider-id',
          'conversation-provider',
          '--platform-listen-port',
          String(platformPort),
          ...extra,
        ]);
      for (const run of [1, 2]) {
        const out = await conform();
        expect(out.code, `run ${run}: ${out.stdout}${out.stderr}`).toBe(0);
      }
      // the same ids twice: the second run's chats are old to the bot, which stays silent
      const first = await conform('--run-id', '31');
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const repeated = await conform('--run-id', '31');
      expect(repeated.code, repeated.stdout + repeated.stderr).toBe(1);
    }, 120_000);

    it('conform bot --fuzz finds the bot answering a redelivery twice, and its repro as printed is red against that bot and green once fixed', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'svc-foreign-fuzz-'));
      const platformPort = await freePort();
      const botPort = await freePort();
      const stateDir = mkdtempSync(join(tmpdir(), 'svc-foreign-fuzz-state-'));
      const bot = async (mode: string): Promise<ForeignPeer> => {
        const started = await startForeignPeer({
          kind: 'flask-bot',
          mode,
          port: botPort,
          stateDir,
          platformUrl: `http://127.0.0.1:${platformPort}`,
        });
        stops.push(() => started.stop());
        return started;
      };
      const broken = await bot('answer-twice');
      const fuzzed = await runCli(
        [
          'conform',
          'bot',
          '--url',
          broken.url,
          '--token',
          'conversation-token',
          '--provider-id',
          'conversation-provider',
          '--platform-listen-port',
          String(platformPort),
          '--fuzz',
          '5',
          '--seed',
          '7',
        ],
        { cwd },
      );
      expect(fuzzed.code, fuzzed.stdout + fuzzed.stderr).toBe(1);
      expect(fuzzed.stdout).toContain('✗ fuzz: answers a redelivery the same way');
      const printed = /reproduce: (svc-cli replay .+)$/m.exec(fuzzed.stdout)?.[1];
      expect(printed, fuzzed.stdout).toMatch(
        /^svc-cli replay \S+\.conversation\.json --bot-url \S+ --platform-port \d+$/,
      );
      // the command as printed; only the global --time-scale before it shortens the 10 s
      // window in which a second answer is waited for
      const args = printed!.split(' ').slice(1);
      const replayed = (): ReturnType<typeof runCli> =>
        runCli(['--time-scale', '0.2', ...args, '--verbose'], { cwd });

      const red = await replayed();
      expect(red.code, red.stdout + red.stderr).toBe(1);
      expect(red.stdout).toMatch(
        /✗ \d+\. expect the bot to answer event \S+ 1 time[^\n]*\n\s+expected the bot to answer CLIENT_MESSAGE \S+ \(chat \d+, 2 attempts\) 1 time within \d+ ms, it answered 2 times: a redelivered event \(same id\) was answered again/,
      );

      await broken.stop();
      await bot('echo');
      const green = await replayed();
      expect(green.code, green.stdout + green.stderr).toBe(0);
      expect(green.stdout).toContain('expectations: 2 checked, 0 skipped');
      // twice in a row against the same stateful bot: the event ids are fresh each run
      const again = await replayed();
      expect(again.code, again.stdout + again.stderr).toBe(0);
    }, 120_000);
  },
);
