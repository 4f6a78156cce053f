import { readFileSync } from 'node:fs';
import { createServer as createRawServer, request as rawRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  formatProxyEvent,
  formatProxyExchange,
  formatProxyListening,
  formatProxySummary,
} from '../../src/cli/render/proxy.js';
import { isEssential } from '../../src/cli/render/output.js';
import { createVirtualClock, type VirtualClock } from '../../src/clock.js';
import { CHANNEL_DELIVERY_POLICY } from '../../src/contract/timing.js';
import { createJournal } from '../../src/journal/journal.js';
import { sendAgentMessage, type AgentMessageResult } from '../../src/platform/index.js';
import {
  startProxy,
  type ProxyEvent,
  type ProxyExchangeEvent,
  type RunningProxy,
} from '../../src/proxy/index.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { sendCustomerMessage } from '../../src/roles/integrator/send.js';
import { postJson } from '../../src/http/client.js';
import { convertRecording } from '../../src/conversation/record/to-fixture.js';
import { conversationSchema } from '../../src/conversation/format.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { createObserver } from '../../src/conversation/record/observe.js';
import { learnProfile, settingsOf } from '../../src/conversation/record/profile.js';
import { buildSampleHookEvent } from '../../src/roles/hooks/samples.js';
import { startListener } from '../helpers/listener.js';
import { customerText, post, startPlatform } from '../helpers/platform.js';
import { closeBotPlatforms, startBotPlatform } from '../helpers/bot-platform.js';
import { deadUrl } from '../helpers/hooks.js';

const proxies: RunningProxy[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close(0)));
  await Promise.all(servers.splice(0).map((s) => s.close(0)));
  await closeBotPlatforms();
});

/** An upstream that answers every request alike once its body was read; closed after the test. */
async function answering(
  status: number,
  body: string,
  contentType = 'application/json',
): Promise<RunningServer> {
  const server = await startServer({
    handler(req, res) {
      req.resume();
      req.on('end', () => {
        res.writeHead(status, { 'content-type': contentType });
        res.end(body);
      });
    },
  });
  servers.push(server);
  return server;
}

async function proxy(
  options: Omit<Parameters<typeof startProxy>[0], 'onEvent'>,
): Promise<{ proxy: RunningProxy; events: ProxyExchangeEvent[] }> {
  const events: ProxyExchangeEvent[] = [];
  const running = await startProxy({
    ...options,
    onEvent: (e: ProxyEvent) => {
      if (e.type === 'exchange') events.push(e);
    },
  });
  proxies.push(running);
  return { proxy: running, events };
}

async function agentReply(
  clock: VirtualClock,
  core: Parameters<typeof sendAgentMessage>[0],
  customerId: string,
  text: string,
): Promise<AgentMessageResult> {
  let result: AgentMessageResult | undefined;
  const sending = sendAgentMessage(core, { customerId, message: { type: 'text', text } }).then(
    (r) => (result = r),
  );
  await clock.runUntil(() => result !== undefined);
  await sending;
  return result!;
}

/**
 * The simulator's channel delivering through `proxy channel` to a listener, one agent reply
 * after a customer's first message: the proxy's events and journal, the listener's view.
 */
async function agentReplyThroughProxy(options: {
  failFirst?: number;
  plan?: Parameters<typeof startProxy>[0]['plan'];
  channelPolicy?: Parameters<typeof startPlatform>[0]['channelPolicy'];
  chunked?: boolean;
}) {
  const clock = createVirtualClock();
  const listener = await startListener({
    clock,
    ...(options.failFirst === undefined ? {} : { plan: { failFirst: options.failFirst } }),
  });
  const journal = createJournal();
  const { proxy: p, events } = await proxy({
    iface: 'channel',
    upstreams: { integrator: listener.listener.url },
    clock,
    journal,
    ...(options.plan === undefined ? {} : { plan: options.plan }),
  });
  const harness = await startPlatform({
    clock,
    ...(options.channelPolicy === undefined ? {} : { channelPolicy: options.channelPolicy }),
    channels: [
      { id: 'shop', integratorUrl: `${p.url}/integrator`, chunked: options.chunked ?? false },
    ],
  });
  expect((await post(harness.channelUrl, customerText('c-1', 'Hello'))).status).toBe(200);
  await agentReply(clock, harness.platform.core, 'c-1', 'Hi');
  return { proxy: p, events, journal };
}

describe('proxy channel', () => {
  it("hides the channel URL's random string, whatever the base's path (spec 5.1)", async () => {
    const { proxy: p } = await proxy({
      iface: 'channel',
      clock: createVirtualClock(),
      upstreams: {
        platform: 'http://127.0.0.1:9/base/r4nd0m/shop',
        integrator: 'http://127.0.0.1:9/int',
      },
    });
    expect(p.redact('POST http://127.0.0.1:9/base/r4nd0m/shop')).toBe(
      'POST http://127.0.0.1:9/base/***/shop',
    );
  });

  it('sees the 3 attempts at 0, 3, 6 s between the simulator and listen --fail-first 2', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 2 } });
    const journal = createJournal();
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
      journal,
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    expect((await post(harness.channelUrl, customerText('c-1', 'Hello'))).status).toBe(200);
    const result = await agentReply(clock, harness.platform.core, 'c-1', 'Hi there');
    expect(result).toMatchObject({ result: 'delivered', attempts: 3 });
    expect(
      events.map((e) => [e.attempt?.attempt, e.attempt?.gapMs, e.attempt?.expectedGapMs, e.status]),
    ).toEqual([
      [1, 0, 0, 500],
      [2, 3000, 3000, 500],
      [3, 6000, 6000, 200],
    ]);
    expect(events.map((e) => e.kind)).toEqual(Array(3).fill('channel.agent.text'));
    expect(events[2]?.outcome).toEqual({ kind: 'delivered', attempts: 3 });
    expect(events.every((e) => e.path === '/integrator/shop')).toBe(true);
    expect(p.summary()).toMatchObject({ exchanges: 3, redelivered: 1, gaveUp: 0, violations: 0 });
    // the first refused attempt says what the platform takes; the later ones stay short
    const plain = new Chalk({ level: 0 });
    expect(formatProxyExchange(events[0]!, plain)).toContain(
      'integrator: HTTP 500; the platform takes only 200 with {"result":"ok"} or an error object, else it tries again (spec 2.2, 4.2, 8)',
    );
    expect(formatProxyExchange(events[1]!, plain)).not.toContain('the platform takes only');
    expect(
      formatProxyListening(
        {
          type: 'listening',
          url: p.url,
          iface: 'channel',
          legs: [
            {
              leg: 'integrator',
              caller: 'platform',
              url: `${p.url}/integrator`,
              upstream: 'http://127.0.0.1:9000/agent-messages',
            },
          ],
        },
        plain,
      ),
    ).toContain(
      `${p.url}/integrator/<channel id>  ->  http://127.0.0.1:9000/agent-messages/<channel id>`,
    );
    // the listener saw the message three times, unchanged (message.id kept)
    const ids = listener.events.map((e) => (e.type === 'agent-message' ? e.attempt : 0));
    expect(ids).toEqual([1, 2, 3]);
  });

  it('--profile: attempts placed against a learned schedule; one off it is flagged', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 1 } });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
      // the real platform was seen resending after 5 s; this simulator follows the spec's 3 s
      profile: {
        name: 'real',
        policies: {
          integrator: {
            attempts: 3,
            intervalMs: 5000,
            attemptTimeoutMs: 3000,
            failAfterMs: 13_000,
          },
        },
      },
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    expect((await post(harness.channelUrl, customerText('c-1', 'Hello'))).status).toBe(200);
    await agentReply(clock, harness.platform.core, 'c-1', 'Hi there');
    expect(events.map((e) => e.attempt)).toMatchObject([
      { attempt: 1, gapMs: 0, expectedGapMs: 0, against: 'real' },
      { attempt: 2, gapMs: 3000, expectedGapMs: 5000, against: 'real', departs: true },
    ]);
    expect(events[0]?.attempt?.departs).toBeUndefined();
    const line = formatProxyExchange(events[1]!, new Chalk({ level: 0 }));
    expect(line).toContain('attempt 2/3');
    expect(line).toContain('at +3.0 s, expected +5.0 s (off the schedule of profile real)');
  });

  it("--profile: the give-up line names the profile's time beside the spec's", async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 5 } });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
      profile: {
        name: 'staging',
        policies: {
          integrator: { attempts: 3, intervalMs: 3000, attemptTimeoutMs: 3000, failAfterMs: 6000 },
        },
      },
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    expect((await post(harness.channelUrl, customerText('c-1', 'Hello'))).status).toBe(200);
    await agentReply(clock, harness.platform.core, 'c-1', 'Hi there');
    expect(events.at(-1)?.outcome).toMatchObject({
      kind: 'gave-up',
      then: 'the platform shows the agent an error (after 6 s under profile staging; spec 8: 9 s)',
    });
  });

  it('without --profile: an attempt off the spec schedule is flagged and counted as a warning', async () => {
    // a platform resending after 1 s (one run at another --time-scale than the proxy's)
    const { proxy: p, events } = await agentReplyThroughProxy({
      failFirst: 1,
      channelPolicy: { ...CHANNEL_DELIVERY_POLICY, intervalMs: 1000 },
    });
    expect(events.map((e) => e.attempt)).toMatchObject([
      { attempt: 1, against: 'spec' },
      { attempt: 2, gapMs: 1000, expectedGapMs: 3000, against: 'spec', departs: true },
    ]);
    const line = formatProxyExchange(events[1]!, new Chalk({ level: 0 }));
    expect(line).toContain(
      "at +1.0 s, expected +3.0 s (off the schedule of the spec: 3× sooner, as a platform started with a --time-scale 3× below the proxy's resends; give the proxy the platform's --time-scale)",
    );
    expect(line.split('\n')[0]).toMatch(/ !$/);
    expect(p.summary()).toMatchObject({ warnings: 1, violations: 0 });
  });

  it('--profile: forms and statuses the profile never saw are flagged as drift', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock });
    const harness = await startPlatform({ clock, channels: [{ id: 'shop' }] });
    const fields = (photo: boolean) =>
      Object.fromEntries(
        [
          'sender',
          'sender.name',
          ...(photo ? ['sender.photo'] : []),
          'recipient',
          'recipient.id',
          'message',
          'message.type',
          'message.text',
        ].map((path) => [path, { [path.includes('.') ? 'string' : 'object']: 4 }]),
      );
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url, platform: harness.channelUrl },
      clock,
      // the real platform sent numeric message ids, no agent photo, and answered 202
      profile: {
        name: 'real',
        policies: {},
        kinds: {
          'channel.agent.text': {
            observations: 4,
            statuses: { '200': 4 },
            fields: { ...fields(false), 'message.id': { number: 4 } },
          },
          'channel.customer.text': { observations: 3, statuses: { '202': 3 }, fields: {} },
        },
      },
    });
    harness.platform.core.state.channels.get('shop')!.integratorUrl = `${p.url}/integrator`;
    expect((await post(`${p.url}/channel`, customerText('c-1', 'Hello'))).status).toBe(200);
    await agentReply(clock, harness.platform.core, 'c-1', 'Hi there');
    expect(events.map((e) => [e.kind, e.drift])).toEqual([
      ['channel.customer.text', ['status 200: the profile saw 202 x3']],
      [
        'channel.agent.text',
        [
          'sender.photo: not in the profile (string)',
          'message.id: string, the profile saw number x4',
        ],
      ],
    ]);
    const line = formatProxyExchange(events[1]!, new Chalk({ level: 0 }));
    expect(line).toContain('drift from the profile: message.id: string, the profile saw number x4');
  });

  it('--profile: a field the profile saw in every exchange, now absent, is drift; the summary counts it', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock });
    const harness = await startPlatform({ clock, channels: [{ id: 'shop' }] });
    const always = (form: string) => ({ [form]: 4 });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
      profile: {
        name: 'real',
        policies: {},
        kinds: {
          'channel.agent.text': {
            observations: 4,
            statuses: { '200': 4 },
            fields: {
              sender: always('object'),
              'sender.name': always('string'),
              'sender.photo': always('string'),
              recipient: always('object'),
              'recipient.id': always('string'),
              message: always('object'),
              'message.type': always('string'),
              'message.text': always('string'),
              'message.id': always('string'),
              // the real platform sent these every time; this one does not
              chat_id: always('number'),
              meta: always('object'),
              // under a missing parent: its top is the line
              'meta.source': always('string'),
              // sometimes: its absence is no drift
              'message.reply_to': { string: 2 },
              // under an array: counts of items, not of exchanges
              'message.buttons[]': always('object'),
            },
          },
        },
      },
    });
    harness.platform.core.state.channels.get('shop')!.integratorUrl = `${p.url}/integrator`;
    await post(harness.channelUrl, customerText('c-1', 'Hello'));
    await agentReply(clock, harness.platform.core, 'c-1', 'Hi there');
    expect(events.map((e) => e.drift)).toEqual([
      [
        'chat_id: absent, the profile saw it in 4 of 4 (number x4)',
        'meta: absent, the profile saw it in 4 of 4 (object x4)',
      ],
    ]);
    const plain = new Chalk({ level: 0 });
    expect(formatProxyExchange(events[0]!, plain).split('\n')[0]).toMatch(/ !$/);
    expect(p.summary()).toMatchObject({ warnings: 0, drift: 2 });
    expect(formatProxySummary(p.summary(), plain)).toContain(
      '0 warnings, 2 drift lines from the profile,',
    );
  });

  it('reports the end of a series that never succeeds (spec 8: the agent sees an error)', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 3 } });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    await post(harness.channelUrl, customerText('c-1', 'Hello'));
    expect((await agentReply(clock, harness.platform.core, 'c-1', 'Hi')).result).toBe('failed');
    expect(events.at(-1)?.outcome).toMatchObject({ kind: 'gave-up', attempts: 3 });
    expect(p.summary().gaveUp).toBe(1);
  });

  it("an integrator URL that misses the proxy's /integrator path: the platform names the proxy, not the integrator", async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock });
    const { proxy: p } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/wrong/path` }],
    });
    await post(harness.channelUrl, customerText('c-1', 'Hello'));
    expect((await agentReply(clock, harness.platform.core, 'c-1', 'Hi')).result).toBe('failed');
    const [first] = harness.of('delivery-attempt');
    expect(first?.said).toContain(
      `svc-cli proxy answered, not your integrator: it takes the platform's agent messages at its /integrator path; give the platform --integrator-url ${p.url}/integrator`,
    );
    expect(first?.said).not.toContain('serve that path');
  });

  it('counts the answers the integrator did not accept (its 500s) in the summary', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 2 } });
    const { proxy: p } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    await post(harness.channelUrl, customerText('c-1', 'Hello'));
    expect((await agentReply(clock, harness.platform.core, 'c-1', 'Hi')).result).toBe('delivered');
    // no contract error, nothing slow, nothing given up: only the two 500s say it was not fine
    expect(p.summary()).toMatchObject({ exchanges: 3, violations: 0, slow: 0, notAccepted: 2 });
    expect(formatProxySummary(p.summary(), new Chalk({ level: 0 }))).toContain(
      '0 slow, 2 not accepted, 1 redelivered,',
    );
    // counted per leg, named as legs: "platform 3" read as three calls the platform made
    expect(formatProxySummary(p.summary(), new Chalk({ level: 0 }))).toMatch(
      /^proxy summary: 3 exchanges \(\d on the \w+ leg(, \d on the \w+ leg)*\), /,
    );
  });

  it("an integrator's 500 is no ok verdict on the exchange's --json line (spec 2.2, 8)", async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 1 } });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    await post(harness.channelUrl, customerText('c-1', 'Hello'));
    expect((await agentReply(clock, harness.platform.core, 'c-1', 'Hi')).result).toBe('delivered');
    expect(events.map((e) => [e.status, e.accepted, e.verdict])).toEqual([
      [500, false, { ok: false, errors: 0, warnings: 0 }],
      [200, true, { ok: true, errors: 0, warnings: 0 }],
    ]);
    // --quiet keeps the line that is not ok, as the plain line marks it ✗
    expect(isEssential(events[0]!)).toBe(true);
    expect(formatProxyExchange(events[0]!, new Chalk({ level: 0 })).split('\n')[0]).toMatch(/ ✗$/);
  });

  it('a platform trying a 4th time goes on with the series (beyond spec 8), and a profile learns it', async () => {
    // a platform making 4 attempts at 0, 2, 7, 15 s, to an integrator that fails them all
    const fourAttempts = {
      ...CHANNEL_DELIVERY_POLICY,
      attempts: 4,
      offsetsMs: [0, 2000, 7000, 15_000],
      failAfterMs: 18_000,
    };
    const session = async (channelPolicy: typeof fourAttempts) => {
      const clock = createVirtualClock();
      const listener = await startListener({ clock, plan: { failFirst: 9 } });
      const journal = createJournal();
      const { proxy: p, events } = await proxy({
        iface: 'channel',
        upstreams: { integrator: listener.listener.url },
        clock,
        journal,
      });
      const harness = await startPlatform({
        clock,
        channelPolicy,
        channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
      });
      await post(harness.channelUrl, customerText('c-1', 'Hello'));
      expect(await agentReply(clock, harness.platform.core, 'c-1', 'Hi')).toMatchObject({
        result: 'failed',
        attempts: 4,
      });
      const observer = createObserver(['proxy']);
      for (const record of journal.entries()) observer.add(record);
      return { proxy: p, events, journal, seen: observer.finish() };
    };
    const { proxy: p, events, journal, seen } = await session(fourAttempts);
    expect(events.map((e) => [e.attempt?.attempt, e.attempt?.of, e.attempt?.gapMs])).toEqual([
      [1, 3, 0],
      [2, 3, 2000],
      [3, 3, 7000],
      [4, 3, 15_000],
    ]);
    // the proxy could not know at attempt 3; attempt 4 is flagged beyond the spec's 3
    expect(events[2]?.outcome).toMatchObject({ kind: 'gave-up', attempts: 3 });
    expect(events[3]?.attempt).toMatchObject({ against: 'spec', departs: true });
    expect(events[3]?.attempt?.expectedGapMs).toBeUndefined();
    expect(events[3]?.outcome).toMatchObject({ kind: 'gave-up', attempts: 4 });
    const line = formatProxyExchange(events[3]!, new Chalk({ level: 0 }));
    expect(line).toContain('attempt 4/3 of ');
    expect(line).toContain('at +15.0 s (beyond the 3 attempts of the spec, spec 8)');
    expect(line).toContain('no valid answer after 4 attempts');
    expect(p.summary()).toMatchObject({ redelivered: 1, gaveUp: 1, gaveUpByParty: 1 });
    expect(journal.entries().map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    // what the recording teaches a profile: 4 attempts on that schedule
    const learned = learnProfile(seen, 'real');
    expect(learned.channel?.attempts?.value).toBe(4);
    expect(learned.channel?.scheduleMs?.value).toEqual([0, 2000, 7000, 15_000]);
    // and a platform following that profile makes a recording that diffs clean against it
    const again = await session(settingsOf(learned).channelPolicy as typeof fourAttempts);
    expect(diffObservations(seen, again.seen).differences).toEqual([]);
  });

  it('a given-up series goes on within its window; the same body a minute later is a message of its own', async () => {
    const failing = await answering(500, '{"error":"down"}');
    const clock = createVirtualClock();
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: failing.url },
      clock,
    });
    // an agent's "ok" with no message.id: its attempts are told apart by the body alone
    const ok = {
      sender: { name: 'Ann' },
      recipient: { id: 'c-1' },
      message: { type: 'text', text: 'ok' },
    };
    for (const wait of [0, 3000, 3000, 2000, 60_000]) {
      await clock.advance(wait);
      await post(`${p.url}/integrator/shop`, ok);
    }
    expect(events.map((e) => [e.attempt?.attempt, e.attempt?.gapMs, e.outcome?.kind])).toEqual([
      [1, 0, undefined],
      [2, 3000, undefined],
      [3, 6000, 'gave-up'],
      // 2 s after the give-up, inside the 9 s window: the platform tried again (spec 8)
      [4, 8000, 'gave-up'],
      // a minute later: the agent said "ok" again, a new message, not attempt 5 of the last
      [1, 0, undefined],
    ]);
    expect(p.summary()).toMatchObject({ gaveUp: 1, redelivered: 1 });
  });

  it('--profile docs: a 200 encoded twice is delivered, a 4xx ends its series unresent', async () => {
    const clock = createVirtualClock();
    let answer = { status: 200, type: 'application/json', body: JSON.stringify('{"result":"ok"}') };
    const integrator = createRawServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body),
      );
    });
    await new Promise<void>((done) => integrator.listen(0, '127.0.0.1', done));
    const integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
    try {
      const docs = { name: 'docs', policies: {}, channelReplies: 'docs' as const };
      const { proxy: p, events } = await proxy({
        iface: 'channel',
        upstreams: { integrator: integratorUrl },
        clock,
        profile: docs,
      });
      const harness = await startPlatform({
        clock,
        channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
        channelReplies: 'docs',
      });
      await post(harness.channelUrl, customerText('c-1', 'Hello'));
      expect(await agentReply(clock, harness.platform.core, 'c-1', 'Hi')).toMatchObject({
        result: 'delivered',
        attempts: 1,
      });
      expect(events.at(-1)?.outcome).toEqual({ kind: 'delivered', attempts: 1 });
      answer = { status: 422, type: 'text/plain', body: 'unknown recipient' };
      expect(await agentReply(clock, harness.platform.core, 'c-1', 'Still there?')).toMatchObject({
        result: 'failed',
        attempts: 1,
      });
      expect(events.at(-1)?.outcome).toMatchObject({
        kind: 'gave-up',
        attempts: 1,
        then: expect.stringContaining('does not resend') as string,
      });
      expect(events).toHaveLength(2);
    } finally {
      await new Promise<void>((done) => integrator.close(() => done()));
    }
  });

  it('checks customer messages on their way to the platform: a numeric sender.id is an error', async () => {
    const clock = createVirtualClock();
    const harness = await startPlatform({ clock, channels: [{ id: 'shop' }] });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { platform: harness.channelUrl },
      clock,
    });
    expect((await post(`${p.url}/channel`, customerText('c-1', 'Hello'))).status).toBe(200);
    const bad = { sender: { id: 42 }, message: { type: 'text', text: 'hi' } };
    const answer = await post(`${p.url}/channel`, bad);
    const status = await fetch(`${p.url}/channel/status`);
    expect(await status.text()).toMatch(/^[01]$/);
    expect(events.map((e) => [e.kind, e.status])).toEqual([
      ['channel.customer.text', 200],
      ['channel.customer.text', answer.status],
      ['channel.status', 200],
    ]);
    expect(events[0]?.requestIssues).toEqual([]);
    expect(events[1]?.requestIssues.map((i) => [i.path, i.severity])).toContainEqual([
      'sender.id',
      'error',
    ]);
    expect(p.summary().violations).toBe(1);
    // the channel URL's random string is a secret (spec 5.1): hidden in lines and records
    const random = new URL(harness.channelUrl).pathname.split('/')[1]!;
    expect(p.redact(events[0]!.upstream)).not.toContain(random);
  });

  it('a customer message answered 202 or 503 breaks spec 4.1, as send-text says; 400 to a broken one does not', async () => {
    let status = 202;
    const platform = await startServer({
      handler(req, res) {
        req.resume();
        req.on('end', () =>
          res.writeHead(status, { 'content-type': 'application/json' }).end('{}'),
        );
      },
    });
    servers.push(platform);
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { platform: `${platform.url}/r4nd0m/shop` },
      clock: createVirtualClock(),
    });
    expect((await post(`${p.url}/channel`, customerText('c-1', 'Hello'))).status).toBe(202);
    status = 503;
    await post(`${p.url}/channel`, customerText('c-1', 'Hello?'));
    status = 400;
    await post(`${p.url}/channel`, { sender: { id: 42 }, message: { type: 'text', text: 'hi' } });
    expect(events.map((e) => [e.status, e.answerIssues.map((i) => [i.code, i.severity])])).toEqual([
      [202, [['http_status', 'error']]],
      [503, [['http_status', 'error']]],
      // the platform refusing a payload that broke the contract is right to
      [400, []],
    ]);
    const line = formatProxyExchange(events[0]!, new Chalk({ level: 0 }));
    expect(line.split('\n')[0]).toMatch(/ ✗$/);
    expect(line).toContain(
      "platform: (root): HTTP 202; the message POST answers 200 on success, another status means contacting the platform's support (spec 4.1)",
    );
    expect(p.summary()).toMatchObject({ violations: 3 });
  });

  it('forwards bodies, statuses, headers and the framing (Content-Length or chunked) unchanged', async () => {
    const seen: {
      te?: string | undefined;
      cl?: string | undefined;
      body: string;
      custom?: string | undefined;
    }[] = [];
    const upstream = await startServer({
      handler(req, res) {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          seen.push({
            te: req.headers['transfer-encoding'],
            cl: req.headers['content-length'],
            body,
            custom: req.headers['x-trace'] as string | undefined,
          });
          if (req.url?.endsWith('/chunky')) {
            res.writeHead(201, { 'content-type': 'application/json', 'x-up': 'yes' });
            res.write('{"result":');
            res.end('"ok"}');
          } else {
            res.writeHead(200, {
              'content-type': 'application/json',
              'content-length': 15,
              'x-up': 'yes',
            });
            res.end('{"result":"ok"}');
          }
        });
      },
    });
    servers.push(upstream);
    const clock = createVirtualClock();
    const { proxy: p } = await proxy({
      iface: 'channel',
      upstreams: { integrator: upstream.url },
      clock,
    });
    const body = JSON.stringify({
      recipient: { id: 'c-1' },
      message: { type: 'text', text: 'hi', id: 'm-1' },
    });
    const send = (path: string, chunked: boolean) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
        (resolve, reject) => {
          const url = new URL(`${p.url}${path}`);
          const req = rawRequest(
            {
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'x-trace': 't-1',
                ...(chunked
                  ? { 'transfer-encoding': 'chunked' }
                  : { 'content-length': Buffer.byteLength(body) }),
              },
            },
            (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
              );
            },
          );
          req.on('error', reject);
          if (chunked) {
            req.write(body.slice(0, 10));
            req.end(body.slice(10));
          } else req.end(body);
        },
      );
    const plain = await send('/integrator/shop', false);
    const chunked = await send('/integrator/chunky', true);
    expect(seen[0]).toEqual({ cl: String(Buffer.byteLength(body)), body, custom: 't-1' });
    expect(seen[1]).toMatchObject({ te: 'chunked', body, custom: 't-1' });
    expect(plain).toMatchObject({ status: 200, body: '{"result":"ok"}' });
    expect(plain.headers).toMatchObject({ 'x-up': 'yes', 'content-length': '15' });
    expect(chunked).toMatchObject({ status: 201, body: '{"result":"ok"}' });
    expect(chunked.headers).toMatchObject({ 'x-up': 'yes', 'transfer-encoding': 'chunked' });
  });

  it('answers 502 with a JSON error when the upstream is down, and keeps serving', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: await deadUrl(), platform: listener.listener.url },
      clock,
    });
    const body = { recipient: { id: 'c-1' }, message: { type: 'text', text: 'hi', id: 'm-9' } };
    const down = await post(`${p.url}/integrator/shop`, body);
    expect(down.status).toBe(502);
    expect(down.body).toMatchObject({ error: { code: 'upstream_unreachable' } });
    expect(events[0]?.failure?.reason).toBe('refused');
    const nowhere = await post(`${p.url}/elsewhere`, body);
    expect(nowhere.status).toBe(404);
    expect(JSON.stringify(nowhere.body)).toContain('/integrator');
    expect(p.summary().upstreamFailures).toBe(1);
  });

  it("keeps the channel's random string out of its own answers, and says the party behind it is down", async () => {
    // spec 5.1: the random string is the channel URL's only protection, and the proxy's port
    // may be reached through a tunnel by anyone (newcomer pass: the 404 listed the upstreams)
    const clock = createVirtualClock();
    const platformUrl = `${await deadUrl()}/s3cr3tR4nd0m/shop`;
    const { proxy: p } = await proxy({
      iface: 'channel',
      upstreams: { platform: platformUrl, integrator: 'http://127.0.0.1:9/int' },
      clock,
    });
    const nowhere = await post(`${p.url}/elsewhere`, {});
    expect(nowhere.status).toBe(404);
    expect(JSON.stringify(nowhere.body)).toContain('/channel/...');
    expect(JSON.stringify(nowhere.body)).not.toMatch(/s3cr3tR4nd0m|127\.0\.0\.1:9\b/);
    const customer = { sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } };
    const down = await post(`${p.url}/channel`, customer);
    expect(down.status).toBe(502);
    expect(JSON.stringify(down.body)).not.toContain('s3cr3tR4nd0m');
    // svc-cli's own clients (send-text, hook-fire, the platform) name the party, not a 502
    const outcome = await postJson({
      url: `${p.url}/channel`,
      body: JSON.stringify(customer),
      timeoutMs: 5000,
      clock,
    });
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'refused',
      message: expect.stringContaining(
        'through svc-cli proxy: the upstream refused the connection',
      ),
    });
  });

  it('records a session that record to-fixture turns into a fixture replaying green', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock, plan: { failFirst: 1 } });
    const journal = createJournal();
    const { proxy: p } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
      journal,
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    const { proxy: front } = await proxy({
      iface: 'channel',
      upstreams: { platform: harness.channelUrl },
      clock,
      journal,
    });
    expect(
      (await post(`${front.url}/channel`, customerText('c-7', 'Where is my order?'))).status,
    ).toBe(200);
    await agentReply(clock, harness.platform.core, 'c-7', 'On its way');
    const fixture = convertRecording({ records: journal.entries(), name: 'from proxy' });
    expect(fixture.steps.length).toBeGreaterThan(1);
    const result = await replayConversation({ conversation: conversationSchema.parse(fixture) });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('proxy recordings and chunked delivery', () => {
  it('a platform that sends chunked: the converted fixture sets setup.channel.chunked', async () => {
    const { journal } = await agentReplyThroughProxy({ chunked: true });
    const sent = journal.entries().find((r) => r.kind === 'channel.agent.text');
    expect(sent?.request.headers?.['transfer-encoding']).toBe('chunked');
    const fixture = convertRecording({ records: journal.entries(), name: 'chunked' });
    expect(fixture.setup).toMatchObject({ channel: { chunked: true } });
  });
});

describe('proxy faults', () => {
  it('record to-fixture leaves out the attempts --fault answered: the integrator never got them', async () => {
    const { journal } = await agentReplyThroughProxy({ plan: { failFirst: 2 } });
    const fixture = convertRecording({
      records: journal.entries().map((r) => ({ ...r, run: 'r1' })),
      name: 'proxy with --fault',
    });
    expect(fixture.steps).toContainEqual({
      agent: { text: 'Hi', to: 'c-1' },
      delivery: { result: 'delivered', attempts: 1 },
    });
    expect(fixture.setup).toBeUndefined();
    expect(fixture.description).toContain("2 attempts answered by the proxy's --fault left out");
  });

  it('--fail-first 2 on the integrator leg: the real platform redelivers, the integrator sees one request', async () => {
    const clock = createVirtualClock();
    const listener = await startListener({ clock });
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: listener.listener.url },
      clock,
      plan: { failFirst: 2 },
    });
    const harness = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: `${p.url}/integrator` }],
    });
    await post(harness.channelUrl, customerText('c-1', 'Hello'));
    const result = await agentReply(clock, harness.platform.core, 'c-1', 'Hi');
    expect(result).toMatchObject({ result: 'delivered', attempts: 3 });
    expect(
      events.map((e) => [e.attempt?.attempt, e.status, e.forwarded, e.fault ?? 'none']),
    ).toEqual([
      [1, 500, false, 'status:500'],
      [2, 500, false, 'status:500'],
      [3, 200, true, 'none'],
    ]);
    // each line names its message: interleaved series are told apart (newcomer pass)
    const ids = events.map((e) => e.attempt?.message);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^(?!body )\S+$/);
    expect(formatProxyExchange(events[1]!, new Chalk({ level: 0 }))).toContain(
      `attempt 2/3 of ${ids[0]} at +3.0 s`,
    );
    // only the third attempt reached the real integrator
    expect(listener.events.filter((e) => e.type === 'agent-message')).toHaveLength(1);
    // the summary says the two 500s were the proxy's, not the integrator's
    expect(p.summary()).toMatchObject({
      exchanges: 3,
      redelivered: 1,
      injected: 2,
      // the proxy's own 500s: not the integrator's refusals
      notAccepted: 0,
      gaveUpByParty: 0,
    });
    expect(formatProxySummary(p.summary(), new Chalk({ level: 0 }))).toContain(
      "; 2 changed by --fault (not the upstream's doing)",
    );
  });
});

describe('proxy faults through the one fault step', () => {
  it('a reset, a malformed body and a delay alone on the receiver leg: what the caller and the upstream see', async () => {
    const clock = createVirtualClock();
    let upstreamHits = 0;
    const upstream = createRawServer((req, res) => {
      upstreamHits += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    const { proxy: p, events } = await proxy({
      iface: 'hooks',
      upstreams: { receiver: `http://127.0.0.1:${port}/hooks` },
      clock,
      plan: { delayMs: 500, sequence: [{ kind: 'reset' }, { kind: 'bad-json' }] },
    });
    const send = async (): Promise<string> => {
      let outcome: string | undefined;
      const done = fetch(`${p.url}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'chat_finished', id: 'e-1' }),
      }).then(
        async (r) => (outcome = `${r.status} ${await r.text()}`),
        () => (outcome = 'network error'),
      );
      // the delay is protocol time; the upstream's answer comes over a real socket
      await clock.runUntil(() => outcome !== undefined);
      return done;
    };
    try {
      expect(await send()).toBe('network error');
      expect(await send()).toBe('200 {"result": ok');
      expect(await send()).toBe('200 {"result":"ok"}');
      await clock.runUntil(() => events.length === 3);
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
    expect(
      events.map((e) => [e.forwarded, e.fault, e.status, e.failure?.reason, e.durationMs]),
    ).toEqual([
      [false, 'reset', undefined, 'reset', 500],
      [false, 'bad-json', 200, undefined, 500],
      [true, 'delay:500', 200, undefined, 500],
    ]);
    expect(upstreamHits).toBe(1);
    // what the proxy's console shows: a fault the caller got is no pass (a newcomer read the
    // malformed body's ✓ as "the reply conforms"), its line said once
    const plain = new Chalk({ level: 0 });
    const shown = events.map((e) => formatProxyExchange(e, plain).split('\n'));
    expect(shown[0]![0]).toMatch(/ ✗$/);
    expect(shown[0]).toContain('    fault reset: connection reset by the proxy, not forwarded');
    expect(shown[0]).not.toContain('    fault reset');
    expect(shown[1]![0]).toMatch(/ 200 {2}500 ms {2}✗$/);
    expect(shown[1]).toContain('    fault bad-json: answered by the proxy, not forwarded');
    // a delay alone was forwarded: the upstream answered, nothing says otherwise
    expect(shown[2]).toContain('    fault delay:500');
    const hang = formatProxyExchange(
      { ...events[0]!, fault: 'hang', failure: { reason: 'hang', message: 'fault hang' } },
      plain,
    ).split('\n');
    expect(hang[0]).toMatch(/ hang {2}held open {2}✗$/);
    expect(hang).toContain(
      '    fault hang: held open by the proxy until the caller gives up, not forwarded',
    );
    expect(hang).not.toContain('    fault hang');
  });
});

describe('proxy bot', () => {
  it('sees the 2 attempts to a silent provider and the hand-over that follows (spec 8)', async () => {
    const clock = createVirtualClock();
    const hang = createRawServer(() => undefined); // never answers
    await new Promise<void>((done) => hang.listen(0, '127.0.0.1', done));
    const silentUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    try {
      const { proxy: p, events } = await proxy({
        iface: 'bot',
        upstreams: { provider: silentUrl },
        clock,
      });
      const setup = await startBotPlatform({
        clock,
        bot: { providerUrl: `${p.url}/provider` },
      });
      await post(setup.channelUrl, customerText('c-1', 'I need help'));
      await clock.runUntil(() => events.length >= 2, 20_000);
      expect(events.map((e) => [e.kind, e.attempt?.attempt, e.attempt?.of])).toEqual([
        ['bot.event.CLIENT_MESSAGE', 1, 2],
        ['bot.event.CLIENT_MESSAGE', 2, 2],
      ]);
      expect(events.every((e) => e.slow && e.failure?.reason === 'caller-gone')).toBe(true);
      // one wording for the platform's own timeout (it read 'would have timed out' for some)
      expect(formatProxyExchange(events[0]!, new Chalk({ level: 0 }))).toContain(
        'caller-gone  3.0 s: the platform timed out (3.0 s, spec 8)',
      );
      expect(events[1]?.outcome).toMatchObject({ kind: 'gave-up', attempts: 2 });
      expect(events[1]?.outcome).toMatchObject({ then: expect.stringContaining('agent') });
      // the provider's own silence: what --fail-on-violation counts
      expect(p.summary()).toMatchObject({ gaveUp: 1, gaveUpByParty: 1 });
      // the token seen in the path is a secret from then on (spec 5.2)
      expect(p.redact(events[0]!.upstream)).toBe(`${silentUrl}/***`);
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
  });
});

describe('proxy bot: what giving up on an event means', () => {
  it('an AGENT_JOINED the bot fails twice is dropped, not a hand-over (only CLIENT_MESSAGE is)', async () => {
    const failing = await answering(500, '{"error":"down"}');
    const { proxy: p, events } = await proxy({
      iface: 'bot',
      upstreams: { provider: failing.url },
      clock: createVirtualClock(),
    });
    const joined = readFileSync('fixtures/payloads/bot/agent-joined.valid.json', 'utf8');
    for (let i = 0; i < 2; i++) await post(`${p.url}/provider/t0k3n`, JSON.parse(joined));
    expect(events.map((e) => [e.kind, e.attempt?.attempt])).toEqual([
      ['bot.event.AGENT_JOINED', 1],
      ['bot.event.AGENT_JOINED', 2],
    ]);
    expect(events[1]?.outcome).toEqual({
      kind: 'gave-up',
      attempts: 2,
      then: 'the platform drops the event; only a CLIENT_MESSAGE hands the chat over (spec 3, 8)',
    });
  });
});

describe('proxy hooks', () => {
  it('reports a malformed reply of the receiver as a violation', async () => {
    const receiver = await answering(200, '{"custom_data":"not an array","enable_assign":"yes"}');
    const clock = createVirtualClock();
    const { proxy: p, events } = await proxy({
      iface: 'hooks',
      upstreams: { receiver: receiver.url },
      clock,
    });
    const event = buildSampleHookEvent('chat_accepted');
    const answer = await post(`${p.url}/hooks`, event);
    expect(answer.status).toBe(200);
    expect(events[0]).toMatchObject({
      kind: 'hook.chat_accepted',
      answerKind: 'hook.chat_accepted.reply',
    });
    expect(events[0]?.requestIssues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(events[0]?.answerIssues.some((i) => i.severity === 'error')).toBe(true);
    expect(p.summary().violations).toBe(1);
  });

  it('a reply without result says what the smallest valid reply is, as hook-fire does', async () => {
    const receiver = await answering(200, '{"ok":true}');
    const { proxy: p, events } = await proxy({
      iface: 'hooks',
      upstreams: { receiver: receiver.url },
      clock: createVirtualClock(),
    });
    await post(`${p.url}/hooks`, buildSampleHookEvent('chat_finished'));
    const errors = events[0]?.answerIssues.filter((i) => i.severity === 'error') ?? [];
    expect(errors.map((i) => i.rule).join('\n')).toContain(
      'a minimal valid reply is {"result":"ok"}',
    );
  });

  it('a caller that leaves long before the budget is not the receiver failing (a second reader)', async () => {
    const hang = createRawServer(() => undefined); // never answers
    await new Promise<void>((done) => hang.listen(0, '127.0.0.1', done));
    try {
      const clock = createVirtualClock();
      const { proxy: p, events } = await proxy({
        iface: 'hooks',
        upstreams: { receiver: `http://127.0.0.1:${(hang.address() as AddressInfo).port}` },
        clock,
      });
      // hook-fire --timeout 1000: its own limit, a tenth of the 10 s hooks are given
      const sending = postJson({
        url: `${p.url}/hooks`,
        body: JSON.stringify(buildSampleHookEvent('chat_accepted')),
        timeoutMs: 1000,
        clock,
      });
      await clock.runUntil(() => events.length > 0, 20_000);
      await sending;
      expect(events[0]?.failure?.reason).toBe('caller-gone');
      expect(events[0]?.slow).toBe(false);
      expect(p.summary()).toMatchObject({ slow: 0, gaveUpByParty: 0 });
      expect(formatProxyExchange(events[0]!, new Chalk({ level: 0 }))).not.toContain(
        'the platform timed out',
      );
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
  });

  it('a request in flight when the proxy stops is journaled as interrupted, no failure of the upstream', async () => {
    let received: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (received = resolve));
    const hang = createRawServer((req) => {
      req.resume();
      received(); // and never answers
    });
    await new Promise<void>((done) => hang.listen(0, '127.0.0.1', done));
    try {
      const journal = createJournal();
      const { proxy: p, events } = await proxy({
        iface: 'hooks',
        upstreams: { receiver: `http://127.0.0.1:${(hang.address() as AddressInfo).port}` },
        clock: createVirtualClock(),
        journal,
      });
      const sending = post(`${p.url}/hooks`, buildSampleHookEvent('chat_finished')).catch(
        () => undefined,
      );
      await reached;
      await p.close(0);
      await sending;
      expect(events.map((e) => e.failure?.reason)).toEqual(['interrupted']);
      expect(journal.entries().map((r) => r.failure?.reason)).toEqual(['interrupted']);
      expect(p.summary()).toMatchObject({ upstreamFailures: 0, gaveUp: 0 });
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
  });

  it('counts a receiver answering 500 (an HTML traceback, as a real Flask receiver did) as a violation', async () => {
    const receiver = await answering(500, '<!doctype html><title>TypeError</title>', 'text/html');
    const clock = createVirtualClock();
    const { proxy: p, events } = await proxy({
      iface: 'hooks',
      upstreams: { receiver: receiver.url },
      clock,
    });
    const answer = await post(
      `${p.url}/hooks/chat_finished/k1`,
      buildSampleHookEvent('chat_finished'),
    );
    expect(answer.status).toBe(500); // forwarded unchanged
    expect(events[0]?.answerIssues.map((i) => i.rule)).toEqual([
      "HTTP 500; expected 200 with the event's JSON reply",
    ]);
    expect(p.summary()).toMatchObject({ violations: 1 });
    expect(Object.keys(p.summary().byRule)).toEqual([
      "answer to hook.chat_finished (root): HTTP 500; expected 200 with the event's JSON reply",
    ]);
  });
});

describe('proxy --body-limit', () => {
  it('journals the refused exchange like the others: the request line and the 413', async () => {
    const clock = createVirtualClock();
    const journal = createJournal();
    const upstream = 'http://127.0.0.1:9/int';
    const { proxy: p, events } = await proxy({
      iface: 'channel',
      upstreams: { integrator: upstream },
      clock,
      journal,
      bodyLimit: 64,
    });
    const big = customerText('c-1', 'x'.repeat(200));
    const answer = await post(`${p.url}/integrator/shop`, big);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: { code: 'body_too_large' } });
    const records = journal.entries();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      iface: 'channel',
      request: { method: 'POST', url: `${upstream}/shop`, body: '<body_too_large>' },
      response: { status: 413, body: JSON.stringify(answer.body) },
      notes: ['proxy', 'leg:integrator', 'not forwarded: body_too_large'],
    });
    // not judged: no exchange event, nothing forwarded
    expect(events).toEqual([]);
  });
});

describe('proxy: a path no leg serves', () => {
  const plain = new Chalk({ level: 0 });

  async function unroutedProxy(options: Omit<Parameters<typeof startProxy>[0], 'onEvent'>) {
    const events: ProxyEvent[] = [];
    const running = await startProxy({ ...options, onEvent: (e) => events.push(e) });
    proxies.push(running);
    const said = () =>
      events.filter((e) => e.type === 'request-rejected').map((e) => formatProxyEvent(e, plain));
    return { proxy: running, events, said };
  }

  it("hooks: a platform pointed at the receiver's own path is told where to point, once per path", async () => {
    const clock = createVirtualClock();
    const { proxy: p, said } = await unroutedProxy({
      iface: 'hooks',
      upstreams: { receiver: 'http://127.0.0.1:9/webhook/x' },
      clock,
    });
    const hook = buildSampleHookEvent('chat_accepted');
    for (let i = 0; i < 2; i++) expect((await post(`${p.url}/webhook/x`, hook)).status).toBe(404);
    expect((await post(`${p.url}/webhook/y`, hook)).status).toBe(404);
    // the leg's own path, with or without the slash, is forwarded (its upstream is down)
    expect((await post(`${p.url}/hooks`, hook)).status).toBe(502);
    expect(said()).toEqual([
      `! POST /webhook/x: not proxied (answered 404); point the platform's hook URL at ${p.url}/hooks`,
      `! POST /webhook/y: not proxied (answered 404); point the platform's hook URL at ${p.url}/hooks`,
    ]);
  });

  it('a Host not admitted (a tunnel) and a body over the limit are said once each, with the way out', async () => {
    const { proxy: p, said } = await unroutedProxy({
      iface: 'hooks',
      upstreams: { receiver: 'http://127.0.0.1:9/hooks' },
      clock: createVirtualClock(),
      bodyLimit: 100,
    });
    const viaTunnel = (): Promise<number | undefined> =>
      new Promise((resolve, reject) => {
        const req = rawRequest(`${p.url}/hooks`, {
          method: 'POST',
          headers: { host: 'abc.tunnel.example', 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end('{}');
      });
    expect(await viaTunnel()).toBe(403);
    expect(await viaTunnel()).toBe(403);
    const big = { text: 'x'.repeat(200) };
    expect((await post(`${p.url}/hooks`, big)).status).toBe(413);
    expect((await post(`${p.url}/hooks`, big)).status).toBe(413);
    expect(said()).toEqual([
      '! POST /hooks: refused (answered 403 host_not_allowed); the Host "abc.tunnel.example" is not admitted; --allowed-host abc.tunnel.example admits it (a tunnel or reverse proxy that keeps its own Host)',
      '! POST /hooks: refused (answered 413 body_too_large); the body is over 100 bytes (--body-limit)',
    ]);
  });

  it('bot and channel: each leg is named, the secrets seen hidden', async () => {
    const clock = createVirtualClock();
    const bot = await unroutedProxy({
      iface: 'bot',
      upstreams: { provider: 'http://127.0.0.1:9/bot', platform: 'http://127.0.0.1:9' },
      clock,
    });
    await post(`${bot.proxy.url}/bot/t0k3n`, {});
    expect(bot.said()).toEqual([
      `! POST /bot/t0k3n: not proxied (answered 404); your bot provider calls ${bot.proxy.url}/platform/...; point the bot provider URL at ${bot.proxy.url}/provider`,
    ]);
    const channel = await unroutedProxy({
      iface: 'channel',
      upstreams: {
        platform: 'http://127.0.0.1:9/s3cr3tR4nd0m/shop',
        integrator: 'http://127.0.0.1:9/int',
      },
      clock,
    });
    await post(`${channel.proxy.url}/s3cr3tR4nd0m/shop`, {});
    expect(channel.said()).toEqual([
      `! POST /***/shop: not proxied (answered 404); your integrator calls ${channel.proxy.url}/channel/...; point the channel's integrator URL at ${channel.proxy.url}/integrator`,
    ]);
  });

  it("a leg's path without its upstream names the flag; send-text quotes the proxy", async () => {
    const clock = createVirtualClock();
    const channel = await unroutedProxy({
      iface: 'channel',
      upstreams: { integrator: 'http://127.0.0.1:9/int' },
      clock,
    });
    const sent = await sendCustomerMessage({
      channelUrl: `${channel.proxy.url}/channel`,
      payload: customerText('c-1', 'hi'),
      clock,
    });
    expect(sent.status).toBe(404);
    expect(sent.problem?.message).toBe(
      `Could not send the message: ${new URL(channel.proxy.url).host} is svc-cli proxy, which does not forward this path: svc-cli proxy was started without --platform-url, so it forwards no /channel/...; it forwards only /integrator/... (HTTP 404).`,
    );
    expect(channel.said()).toEqual([
      '! POST /channel: not proxied (answered 404); the proxy was started without --platform-url, the upstream this path forwards to: start it with --platform-url <url> too',
    ]);
  });
});
