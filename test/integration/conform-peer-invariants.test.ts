/**
 * The invariants from the peer's side where svc-cli plays the platform (src/trace/peer-rules.ts):
 * conform bot checks what the bot posts (nothing about a chat after CHAT_CLOSED; its hand-over
 * within the bot budget) on its embedded platform's journal; each planted bug is caught naming
 * both exchanges, and the fixed bot passes. The rules that would judge svc-cli are skipped by
 * name (agent-joined among them: conform bot's AGENT_JOINED is a scripted step); conform hooks
 * and integrator check none and say so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import {
  runConformSuite,
  type BotServiceInfo,
  type ConformCaseResult,
} from '../../src/conversation/conform/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener } from '../../src/roles/integrator/index.js';
import { closePeers, json, startPeer } from '../helpers/broken-peers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await closePeers();
});

const failures = (results: ConformCaseResult[]): string[] =>
  results.flatMap((r) => r.steps.flatMap((s) => (s.status === 'failed' ? s.details : [])));

type Event = Record<string, unknown>;

/**
 * A bot that answers every event 200 and, to a CLIENT_MESSAGE, posts `answer` after `delayMs`
 * of wall time; `afterClose` also posts a BOT_MESSAGE about a chat it was being told closed.
 */
async function startBot(options: {
  answer: 'BOT_MESSAGE' | 'INVITE_AGENT';
  delayMs?: number;
  afterClose?: boolean;
}) {
  const service: { info?: BotServiceInfo } = {};
  const post = (event: Event, name: string, text: string): Promise<unknown> =>
    fetch(service.info!.webhookUrl.replace('<token>', 't0k'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: name,
        id: `b-${Math.random().toString(36).slice(2)}`,
        chat_id: event.chat_id,
        client_id: event.client_id,
        ...(name === 'BOT_MESSAGE'
          ? { message: { type: 'TEXT', text, timestamp: Math.floor(Date.now() / 1000) } }
          : {}),
      }),
    }).catch(() => undefined);
  // the planted bug's post, once under way: later events are answered after it arrived, so the
  // platform has it (journaled) before the suite ends
  let posted: Promise<unknown> = Promise.resolve();
  const url = await startPeer((req, res, body) => {
    // a bot checks its token first (spec 5.2): conform sends one event with a wrong one
    if (req.url?.split('/').at(-1) !== 't0k') return json(res, 401, {});
    const event = JSON.parse(body) as Event;
    void posted.then(() => json(res, 200, {}));
    if (!service.info) return;
    if (event.event === 'CLIENT_MESSAGE')
      setTimeout(() => void post(event, options.answer, 'Hi'), options.delayMs ?? 0);
    // the planted bug: a goodbye about the chat 1.5 s after it answered CHAT_CLOSED: far past
    // the run's 250 ms tolerance (a post within it may have been under way), however late a
    // busy machine journals the answer (at 400 ms, one busy run saw the gap under 250 ms)
    if (event.event === 'CHAT_CLOSED' && options.afterClose)
      posted = new Promise((resolve) => setTimeout(resolve, 1500)).then(() =>
        post(event, 'BOT_MESSAGE', 'Bye!'),
      );
  });
  return { url, service };
}

describe('conform bot checks the bot side of the invariants', () => {
  it('our own bot-sim passes: two checked, the rest skipped by name with the reason', async () => {
    const clock = createClock();
    const bot = await createBotProvider({ token: 't0k', providerId: 'acme', clock });
    closers.push(() => bot.close(10));
    const report = await runConformSuite({
      suite: 'bot',
      url: bot.url,
      token: 't0k',
      providerId: 'acme',
      clock,
      botEvents: 'docs',
      onBotService: (info) => bot.setPlatformUrl(info.url),
    });
    expect(failures(report.results)).toEqual([]);
    expect(report.results.map((r) => r.name)).not.toContain('cross-interface invariants');
    expect(report.invariants).toMatchObject({
      checked: ['bot-after-close', 'handover-budget'],
      violations: 0,
    });
    expect(report.invariants!.exchanges).toBeGreaterThan(4);
    const skipped = report.invariants!.skipped!;
    expect(skipped.map((s) => s.name).sort()).toEqual([
      'agent-joined',
      'callback-order',
      'hook-after-finish',
      'offline-message',
      'redelivery-id',
      'transcript',
    ]);
    expect(skipped.find((s) => s.name === 'agent-joined')!.why).toMatch(/scripted step/);
  });

  it('a bot that answers about a chat after CHAT_CLOSED fails bot-after-close; fixed, it passes', async () => {
    const broken = await startBot({ answer: 'BOT_MESSAGE', afterClose: true });
    const report = await runConformSuite({
      suite: 'bot',
      url: broken.url,
      token: 't0k',
      clock: createClock(),
      botEvents: 'docs',
      onBotService: (info) => (broken.service.info = info),
    });
    const last = report.results.at(-1)!;
    expect(last).toMatchObject({ name: 'cross-interface invariants', ok: false });
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^bot-after-close \(spec 2\.5\): the bot posted #(\d+) BOT_MESSAGE at [\d.]+ s about chat \d+, after it answered #(\d+) CHAT_CLOSED at [\d.]+ s \[exchanges #\d+ and #\d+; --no-invariant bot-after-close switches it off\]$/,
      ),
    ]);
    // only the conversation across the events is wrong: every case passed on its own
    expect(report.results.slice(0, -1).every((r) => r.ok)).toBe(true);
    const off = await runConformSuite({
      suite: 'bot',
      url: broken.url,
      token: 't0k',
      clock: createClock(),
      botEvents: 'docs',
      invariants: { disabled: ['bot-after-close'] },
      onBotService: (info) => (broken.service.info = info),
    });
    expect(failures(off.results)).toEqual([]);

    const fixed = await startBot({ answer: 'BOT_MESSAGE' });
    const clean = await runConformSuite({
      suite: 'bot',
      url: fixed.url,
      token: 't0k',
      clock: createClock(),
      botEvents: 'docs',
      onBotService: (info) => (fixed.service.info = info),
    });
    expect(failures(clean.results)).toEqual([]);
    expect(clean.invariants).toMatchObject({ violations: 0 });
  });

  it('a bot that hands over after the bot budget fails handover-budget; at once, it passes', async () => {
    // 1/4: the budget's 6 s is 1.5 s of wall time; the late bot hands over after 2.5 s (10 s)
    const clock = () => createClock({ timeScale: 0.25 });
    const late = await startBot({ answer: 'INVITE_AGENT', delayMs: 2500 });
    const report = await runConformSuite({
      suite: 'bot',
      url: late.url,
      token: 't0k',
      clock: clock(),
      answerWithinMs: 30_000,
      onBotService: (info) => (late.service.info = info),
    });
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^handover-budget \(spec 8\): the bot handed over \(#(\d+) INVITE_AGENT at [\d.]+ s\) (\d+\.\d+) s after #(\d+) CLIENT_MESSAGE at [\d.]+ s; the hand-over is due within 6\.000 s \[exchanges #\d+ and #\d+; --no-invariant handover-budget switches it off\]$/,
      ),
    ]);
    const prompt = await startBot({ answer: 'INVITE_AGENT' });
    const clean = await runConformSuite({
      suite: 'bot',
      url: prompt.url,
      token: 't0k',
      clock: clock(),
      answerWithinMs: 30_000,
      onBotService: (info) => (prompt.service.info = info),
    });
    expect(failures(clean.results)).toEqual([]);
  });
});

describe('conform hooks and integrator check no invariant, and say why', () => {
  it('every rule judges what the platform sends: all are skipped, by name', async () => {
    const clock = createClock();
    const target = await createHookTarget({ clock });
    closers.push(() => target.close(10));
    const hooks = await runConformSuite({ suite: 'hooks', url: `${target.url}/hooks`, clock });
    expect(hooks.invariants).toMatchObject({ checked: [], violations: 0 });
    expect(hooks.invariants!.skipped).toHaveLength(8);
    expect(hooks.invariants!.skipped![0]!.why).toMatch(
      /none judges the answers of a hook receiver/,
    );

    const listener = await createListener({ clock });
    closers.push(() => listener.close(10));
    const integrator = await runConformSuite({ suite: 'integrator', url: listener.url, clock });
    expect(integrator.invariants).toMatchObject({ checked: [], violations: 0 });
    expect(integrator.invariants!.skipped![0]!.why).toMatch(/an integrator endpoint/);
  });
});
