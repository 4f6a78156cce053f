import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import {
  CONFORM_BOT,
  runConformSuite,
  type BotProviderInfo,
  type ConformCaseResult,
} from '../../src/conversation/conform/index.js';
import type { ExchangeRecord } from '../../src/journal/index.js';
import { createPlatform } from '../../src/platform/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { freePort } from '../helpers/free-port.js';
import { agentLinesTwice, startHookRelay, updateAfterFinish } from '../helpers/hook-relay.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** the redelivery case's 0/3/6 s within 1000 protocol ms: 200 wall ms at 0.2 */
const scale = () => createClock({ timeScale: 0.2 });
/**
 * These tests are about the invariants, not the schedule: the redelivery case's timing gets
 * all the slack it can have (580 wall ms at 0.2), as a machine with other work is late by more
 * than 1000 protocol ms here. Its timing is tested in conform.test.ts.
 */
const SLACK = 2900;

type PlatformRun = Extract<Parameters<typeof runConformSuite>[0], { suite: 'platform' }>;

/**
 * conform platform against `channelUrl` at the tests' scale and slack, with `more` options.
 * At the tests' own scale (0.2) the redelivery schedule case is left out of the report: its
 * 0/3/6 s are 580 wall ms of slack here, which a machine running the suite beside a CPU hog
 * exceeded (busy-test: attempt 2 late, the one failure of two runs). These tests judge the
 * invariants; the schedule is held in conform.test.ts, and here by the redelivery-id test,
 * which runs at 0.5 (`clock`) and keeps the case.
 */
async function conformPlatform(channelUrl: string, more: Partial<PlatformRun> = {}) {
  const report = await runConformSuite({
    clock: scale(),
    ...more,
    suite: 'platform',
    channelUrl,
    toleranceMs: SLACK,
  });
  if (more.clock !== undefined) return report;
  const results = report.results.filter((r) => !r.name.startsWith('redelivery schedule'));
  return { ...report, results, failed: results.filter((r) => !r.ok).length };
}

const failures = (results: ConformCaseResult[]): string[] =>
  results.flatMap((r) => r.steps.flatMap((s) => (s.status === 'failed' ? s.details : [])));

/**
 * The peer under test: svc-cli's platform whose hooks reach conform's receiver through a
 * relay; with `tamper` the relay plants a cross-interface bug no single exchange shows.
 */
async function peer(
  tamper?: Parameters<typeof startHookRelay>[1],
  then?: Parameters<typeof startHookRelay>[2],
  extra: { mutant?: string; agentsOnline?: boolean; clock?: ReturnType<typeof scale> } = {},
) {
  let hookPort = await freePort();
  const relay = await startHookRelay(() => `http://127.0.0.1:${hookPort}/hooks`, tamper, then);
  closers.push(() => relay.close());
  const platform = createPlatform({
    clock: scale(),
    channels: [{ id: 'shop' }],
    hooks: { url: relay.url },
    ...extra,
  });
  await platform.listen({ port: 0 });
  closers.push(() => platform.close());
  const channel = [...platform.core.state.channels.values()][0]!;
  return {
    channelUrl: platform.core.channelInfo(channel).url,
    hookPort,
    relay,
    platform,
    /**
     * A new port for conform's next receiver, which the relay then forwards to: binding the
     * last one again raced every other program on the machine for it (EADDRINUSE in CI)
     */
    rehook: async (): Promise<number> => (hookPort = await freePort()),
  };
}

describe('conform platform checks the cross-interface invariants', () => {
  it('a platform whose chat_finished logs a redelivered message twice fails transcript', async () => {
    const { channelUrl, hookPort, relay } = await peer(agentLinesTwice);
    let receiver: string | undefined;
    const report = await conformPlatform(channelUrl, {
      hookListenPort: hookPort,
      onHookReceiver: (url) => (receiver = url),
    });
    expect(receiver).toBe(`http://127.0.0.1:${hookPort}`);
    expect(relay.relayed).toContain('chat_finished');
    const last = report.results.at(-1)!;
    expect(last.name).toBe('cross-interface invariants');
    expect(last.ok).toBe(false);
    expect(report.failed).toBe(1);
    // the rule, its section, both exchanges (the agent message and chat_finished), the switch
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^transcript \(spec 2\.6\): chat_finished #\d+ chat_finished at \+[\d.]+ s logs the agent message #\d+ agent\.text at \+[\d.]+ s "Redelivery check" 2 times; it was sent once \[exchanges #\d+ and #\d+; --no-invariant transcript switches it off\]$/,
      ),
    ]);
    // the other cases passed: only the conversation across the interfaces is wrong
    expect(report.results.slice(0, -1).every((r) => r.ok)).toBe(true);
  });

  it('a platform that sends a hook after chat_finished fails hook-after-finish', async () => {
    const { channelUrl, hookPort } = await peer(undefined, updateAfterFinish);
    const report = await conformPlatform(channelUrl, {
      hookListenPort: hookPort,
    });
    // a case timed on the scaled clock may fail too on a loaded machine (a redelivery seen
    // early): what this test is about is each hook after chat_finished, said as such
    const found = failures(report.results).filter((line) => line.startsWith('hook-after-finish'));
    // one per chat the suite opened and closed
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const line of found)
      expect(line).toMatch(
        /^hook-after-finish \(spec 6\.2\): #\d+ chat_updated at \+[\d.]+ s went to the hook receiver after #\d+ chat_finished at \+[\d.]+ s \[exchanges #\d+ and #\d+; --no-invariant hook-after-finish switches it off\]$/,
      );
    expect(report.invariants).toMatchObject({ violations: found.length });
  });

  it('passes when the bug is fixed, and with the invariant switched off', async () => {
    const fixed = await peer();
    const clean = await conformPlatform(fixed.channelUrl, {
      hookListenPort: fixed.hookPort,
    });
    expect(failures(clean.results)).toEqual([]);
    expect(clean.results.map((r) => r.name)).not.toContain('cross-interface invariants');
    // the offline form was sent with agents online, and refused (spec 3, 4.5)
    const offline = clean.results.find((r) => r.name === 'offline form while agents are online');
    expect(offline?.steps[0]).toMatchObject({ status: 'passed' });
    expect(offline?.steps[0]?.details).toEqual([
      expect.stringMatching(/^note: refused: Could not send the offline form: agents are online/),
    ]);
    expect(fixed.relay.relayed).not.toContain('offline_message');
    // the page's callbacks, each reported with its push's stream id, in the pushes' order
    const page = clean.results.find((r) => r.name === 'page callbacks follow the pushes');
    expect(page?.steps.map((s) => [s.name, s.status])).toEqual([
      ['svc_onCallEnd once the call ended', 'passed'],
      ['svc_onAccept once the agent accepted', 'passed'],
      ['each callback reported with the stream id of its push', 'passed'],
    ]);
    const [, end, accept] =
      /^note: reported svc_onCallEnd \(push (\d+), call_status\), then svc_onAccept \(push (\d+), agent_accepted\)$/.exec(
        page?.steps[2]?.details[0] ?? '',
      ) ?? [];
    expect(Number(accept)).toBeGreaterThan(Number(end));
    expect(clean.invariants?.checked).toContain('callback-order');
    expect(fixed.relay.relayed.filter((e) => e === 'chat_finished').length).toBeGreaterThan(0);

    const broken = await peer(agentLinesTwice);
    const off = await conformPlatform(broken.channelUrl, {
      hookListenPort: broken.hookPort,
      invariants: { disabled: ['transcript'] },
    });
    expect(failures(off.results)).toEqual([]);
  });

  it('a platform that redelivers an agent message under a new id fails redelivery-id (spec 8), and only that case', async () => {
    // at 0.5, not 0.2: this test holds the schedule case to 0/3/6 s too, and beside a full
    // suite and two other builds attempt 1 reached conform 570 wall ms late (2.9 s at 0.2)
    const slower = () => createClock({ timeScale: 0.5 });
    const { channelUrl, hookPort, rehook } = await peer(undefined, undefined, {
      mutant: 'redeliver-new-id',
      clock: slower(),
    });
    const report = await conformPlatform(channelUrl, {
      hookListenPort: hookPort,
      clock: slower(),
    });
    const last = report.results.at(-1)!;
    expect(last.name).toBe('cross-interface invariants');
    // attempt 2 renamed attempt 1's id, attempt 3 attempt 2's: the two exchanges each time
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^redelivery-id \(spec 8\): #\d+ agent\.text attempt 2 at \+[\d.]+ s carries id \S+-retry-2; the attempt before, #\d+ agent\.text at \+[\d.]+ s, carried \S+ \[exchanges #\d+ and #\d+; --no-invariant redelivery-id switches it off\]$/,
      ),
      expect.stringMatching(
        /^redelivery-id \(spec 8\): #\d+ agent\.text attempt 3 at \+[\d.]+ s carries id \S+-retry-3; the attempt before, #\d+ agent\.text attempt 2 at \+[\d.]+ s, carried \S+-retry-2 \[exchanges #\d+ and #\d+; --no-invariant redelivery-id switches it off\]$/,
      ),
    ]);
    // the schedule case follows the series by chat and text: 0/3/6 s held, whatever the ids
    expect(report.results.slice(0, -1).every((r) => r.ok)).toBe(true);
    const schedule = report.results.find((r) => r.name.startsWith('redelivery schedule'))!;
    expect(schedule.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed']);

    const off = await conformPlatform(channelUrl, {
      hookListenPort: await rehook(),
      invariants: { disabled: ['redelivery-id'] },
      clock: slower(),
    });
    // and the transcript counts the renamed retries as one message
    expect(failures(off.results)).toEqual([]);
    expect(off.invariants?.checked).toContain('transcript');
  });

  it('a platform that takes the offline form while agents are online fails offline-message (spec 3)', async () => {
    // agents offline before: conform sets them online for the form, and back once the hook
    // had its time (the rule reads the availability last shown before the hook)
    const { channelUrl, hookPort, rehook, relay, platform } = await peer(undefined, undefined, {
      mutant: 'offline-form-while-online',
      agentsOnline: false,
    });
    const report = await conformPlatform(channelUrl, {
      hookListenPort: hookPort,
    });
    expect(relay.relayed).toContain('offline_message');
    expect(platform.core.state.agentsOnline).toBe(false);
    // the case sees the form taken; the invariant relates the hook to the availability set
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^the offline form was taken while agents were online \(POST \/_sim\/agents \{"online":true\} answered 200\); expected it refused \(spec 3/,
      ),
      expect.stringMatching(
        /^offline-message \(spec 3\): #\d+ offline_message at [\d.]+ s \(an offline form\) went out while agents were online, as #\d+ POST \/_sim\/agents at [\d.]+ s showed \[exchanges #\d+ and #\d+; --no-invariant offline-message switches it off\]$/,
      ),
    ]);
    expect(report.results.filter((r) => !r.ok).map((r) => r.name)).toEqual([
      'offline form while agents are online',
      'cross-interface invariants',
    ]);

    const off = await conformPlatform(channelUrl, {
      hookListenPort: await rehook(),
      invariants: { disabled: ['offline-message'] },
    });
    expect(off.results.filter((r) => !r.ok).map((r) => r.name)).toEqual([
      'offline form while agents are online',
    ]);
  });

  it("a platform that numbers the accept's push below the call's fails callback-order (spec 6.4), and only that case", async () => {
    const { channelUrl, hookPort, rehook } = await peer(undefined, undefined, {
      mutant: 'widget-push-ids-rewind',
    });
    const report = await conformPlatform(channelUrl, { hookListenPort: hookPort });
    // the page ran svc_onCallEnd, then svc_onAccept, and reported each with the id it got:
    // the accept's push came under a lower one; the rule names both reports
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^callback-order \(spec 6\.4\): #\d+ callback svc_onAccept at \+[\d.]+ s reflects pushed event 1 \(agent_accepted\) yet came after #\d+ callback svc_onCallEnd at \+[\d.]+ s, which reflects the later push [2-9] \(call_status\) \[exchanges #\d+ and #\d+; --no-invariant callback-order switches it off\]$/,
      ),
    ]);
    expect(report.results.filter((r) => !r.ok).map((r) => r.name)).toEqual([
      'cross-interface invariants',
    ]);
    const page = report.results.find((r) => r.name === 'page callbacks follow the pushes')!;
    expect(page.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed']);
    expect(page.steps[2]?.details).toEqual([
      expect.stringMatching(
        /^note: reported svc_onCallEnd \(push [2-9], call_status\), then svc_onAccept \(push 1, agent_accepted\)$/,
      ),
    ]);

    const off = await conformPlatform(channelUrl, {
      hookListenPort: await rehook(),
      invariants: { disabled: ['callback-order'] },
    });
    expect(failures(off.results)).toEqual([]);
    expect(off.invariants?.checked).not.toContain('callback-order');
  });

  it('with a bot on the channel, its answers are not held against the transcript (spec 2.6 logs no bot line)', async () => {
    const clock = scale();
    const hookPort = await freePort();
    const bot = await createBotProvider({ token: 'bt', providerId: 'pv', clock });
    closers.push(() => bot.close(10));
    const platform = createPlatform({
      clock,
      channels: [{ id: 'shop' }],
      bot: { providerUrl: bot.url, token: 'bt', providerId: 'pv' },
      hooks: { url: `http://127.0.0.1:${hookPort}/hooks` },
    });
    const server = await platform.listen({ port: 0 });
    closers.push(() => platform.close());
    bot.setPlatformUrl(server.url);
    const channel = [...platform.core.state.channels.values()][0]!;
    const report = await conformPlatform(platform.core.channelInfo(channel).url, {
      hookListenPort: hookPort,
    });
    expect(failures(report.results)).toEqual([]);
    expect(report.invariants?.conversations).toBeGreaterThanOrEqual(4);
  });

  it("with conform's bot on the channel, a platform that sends AGENT_JOINED unasked fails agent-joined (spec 3)", async () => {
    const broken = await botPeer('agent-joined-unasked');
    let bot: BotProviderInfo | undefined;
    const report = await conformPlatform(broken.channelUrl, {
      hookListenPort: broken.hookPort,
      botListenPort: broken.botPort,
      onBotProvider: (info) => (bot = info),
    });
    expect(bot).toEqual({
      url: `http://127.0.0.1:${broken.botPort}`,
      apiUrl: new URL(broken.channelUrl).origin,
      ...CONFORM_BOT,
    });
    // the rule, its section, both exchanges (the customer's message, the AGENT_JOINED after
    // it, before the CLIENT_MESSAGE the bot hands over), the switch
    expect(failures(report.results)).toEqual([
      expect.stringMatching(
        /^agent-joined \(spec 3\): #\d+ AGENT_JOINED at \+[\d.]+ s without an INVITE_AGENT or a hand-over before it \(the exchange before: #\d+ customer\.text at \+[\d.]+ s\) \[exchanges #\d+ and #\d+; --no-invariant agent-joined switches it off\]$/,
      ),
    ]);
    expect(report.results.filter((r) => !r.ok).map((r) => r.name)).toEqual([
      'cross-interface invariants',
    ]);

    // the mutant fires once per platform: a new one for the run with the rule switched off
    const again = await botPeer('agent-joined-unasked');
    const off = await conformPlatform(again.channelUrl, {
      hookListenPort: again.hookPort,
      botListenPort: again.botPort,
      invariants: { disabled: ['agent-joined'] },
    });
    expect(failures(off.results)).toEqual([]);
    expect(off.invariants?.checked).not.toContain('agent-joined');
  });

  it("with conform's bot on the channel, each chat is handed over before an agent joins it", async () => {
    const fixed = await botPeer();
    const recordFile = join(mkdtempSync(join(tmpdir(), 'svc-conform-bot-')), 'run.ndjson');
    const report = await conformPlatform(fixed.channelUrl, {
      hookListenPort: fixed.hookPort,
      botListenPort: fixed.botPort,
      recordFile,
    });
    expect(failures(report.results)).toEqual([]);
    expect(report.invariants?.checked).toContain('agent-joined');
    // the rule had something to judge: as the platform saw it, AGENT_JOINED went to the bot
    // after its INVITE_AGENT, in the same chat; the bot's token is kept out of the file
    const text = readFileSync(recordFile, 'utf8');
    expect(text).not.toContain(CONFORM_BOT.token);
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExchangeRecord)
      .filter((r) => r.iface === 'bot');
    const joined = records.filter((r) => r.kind === 'bot.event.AGENT_JOINED');
    const invites = records.filter((r) => r.kind === 'bot.event.INVITE_AGENT');
    expect(joined.length).toBeGreaterThan(0);
    expect(joined.every((r) => r.direction === 'out')).toBe(true);
    expect(invites.every((r) => r.direction === 'in' && r.response?.status === 200)).toBe(true);
    const chatOf = (r: ExchangeRecord): unknown =>
      (JSON.parse(r.request.body ?? '{}') as { chat_id?: unknown }).chat_id;
    for (const r of joined)
      expect(invites.some((i) => String(chatOf(i)) === String(chatOf(r)) && i.seq < r.seq)).toBe(
        true,
      );
  });

  it("with the token and provider id of the platform's bot channel, and its bot service given, each chat is handed over", async () => {
    // a platform svc-cli did not configure: its admin set the bot channel up with these
    const own = { token: 'my-bot-token', providerId: 'acme' };
    const peer = await botPeer(undefined, own);
    // the bot service named apart from the channel: the same server under another host name
    const apiUrl = `http://localhost:${new URL(peer.channelUrl).port}/`;
    const recordFile = join(mkdtempSync(join(tmpdir(), 'svc-conform-bot-')), 'run.ndjson');
    let bot: BotProviderInfo | undefined;
    const report = await conformPlatform(peer.channelUrl, {
      hookListenPort: peer.hookPort,
      botListenPort: peer.botPort,
      botToken: own.token,
      providerId: own.providerId,
      botApiUrl: apiUrl,
      onBotProvider: (info) => (bot = info),
      recordFile,
    });
    expect(bot).toEqual({
      url: `http://127.0.0.1:${peer.botPort}`,
      apiUrl: apiUrl.slice(0, -1),
      ...own,
    });
    expect(failures(report.results)).toEqual([]);
    expect(report.invariants?.checked).toContain('agent-joined');
    const text = readFileSync(recordFile, 'utf8');
    expect(text).not.toContain(own.token);
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExchangeRecord)
      .filter((r) => r.iface === 'bot');
    // the platform took the bot's invitations and sent it AGENT_JOINED after them
    const invites = records.filter((r) => r.kind === 'bot.event.INVITE_AGENT');
    expect(invites.length).toBeGreaterThan(0);
    expect(invites.every((r) => r.response?.status === 200)).toBe(true);
    expect(records.some((r) => r.kind === 'bot.event.AGENT_JOINED')).toBe(true);
  });
});

/** svc-cli's platform with conform's bot on its channel, as `platform --bot-provider-url` puts it. */
async function botPeer(mutant?: string, bot: { token: string; providerId: string } = CONFORM_BOT) {
  const hookPort = await freePort();
  const botPort = await freePort();
  const platform = createPlatform({
    clock: scale(),
    channels: [{ id: 'shop' }],
    bot: { providerUrl: `http://127.0.0.1:${botPort}`, ...bot },
    hooks: { url: `http://127.0.0.1:${hookPort}/hooks` },
    ...(mutant === undefined ? {} : { mutant }),
  });
  await platform.listen({ port: 0 });
  closers.push(() => platform.close());
  const channel = [...platform.core.state.channels.values()][0]!;
  return { channelUrl: platform.core.channelInfo(channel).url, hookPort, botPort, platform };
}
