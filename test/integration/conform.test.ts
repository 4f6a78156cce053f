import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { validate } from '../../src/contract/index.js';
import {
  buildAgentPayload,
  buildSampleMedia,
  runConformSuite,
  type ConformCaseResult,
} from '../../src/conversation/conform/index.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { createHookTarget, type HookTarget } from '../../src/roles/hooks/index.js';
import { createListener, type Listener } from '../../src/roles/integrator/index.js';
import { closePeers, deadPeerUrl, json, startPeer } from '../helpers/broken-peers.js';
import { freePort } from '../helpers/free-port.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await closePeers();
});

/** hanging peers: the 3 s limit is 30 ms of wall time */
const fast = () => createClock({ timeScale: 0.01 });
/** peers that answer at once, where the reply time is no part of the test: 300 ms per 3 s */
const scaled = () => createClock({ timeScale: 0.1 });
const reasons = (results: ConformCaseResult[]): string[] =>
  results.flatMap((r) => r.steps.flatMap((s) => (s.status === 'failed' ? s.details : [])));

/** a suite that must pass whole: 1.5 s of wall time per 3 s (300 ms failed in a fresh clone) */
const roomy = () => createClock({ timeScale: 0.5 });

async function listener(clock = scaled()): Promise<Listener> {
  const l = await createListener({ clock });
  closers.push(() => l.close(10));
  return l;
}

describe('conform integrator', () => {
  it('our own listen passes every case', async () => {
    const l = await listener(roomy());
    const report = await runConformSuite({ suite: 'integrator', url: l.url, clock: roomy() });
    expect(report.failed).toBe(0);
    expect(report.results.map((r) => r.name)).toEqual([
      'agent text message',
      'typing starts (typein)',
      'typing stops (typeout)',
      'media: video',
      'media: audio',
      'media: voice',
      'media: photo',
      'media: sticker',
      'media: document',
      'media: location',
      'redelivery of one message.id',
    ]);
    expect(report.passed).toBe(11);
  });

  it("each run's message ids are its own (conform-<run id>-<n>); --run-id repeats them", async () => {
    const ids: string[] = [];
    const url = await startPeer((_req, res, body) => {
      ids.push(String((JSON.parse(body) as { message: { id: unknown } }).message.id));
      json(res, 200, { result: 'ok' });
    });
    const runOnce = async (runId?: number) => {
      ids.length = 0;
      const told: { runId: number; firstMessageId: string }[] = [];
      const report = await runConformSuite({
        suite: 'integrator',
        url,
        clock: roomy(),
        onIntegratorRun: (info) => told.push(info),
        ...(runId === undefined ? {} : { runId }),
      });
      expect(report.failed).toBe(0);
      expect(told).toHaveLength(1);
      expect(ids[0]).toBe(told[0]!.firstMessageId);
      return { ...told[0]!, ids: [...ids] };
    };
    const first = await runOnce();
    expect(first.firstMessageId).toBe(`conform-${first.runId}-1`);
    // the redelivery case sends its one id twice; every other request is a new message
    expect(new Set(first.ids).size).toBe(first.ids.length - 1);
    const second = await runOnce();
    expect(second.ids.filter((id) => first.ids.includes(id))).toEqual([]);
    expect(await runOnce(first.runId)).toEqual(first);
  });

  it('sends agent messages that are valid per the contract (spec 2.2-2.4)', () => {
    for (const type of ['video', 'audio', 'voice', 'photo', 'sticker', 'document', 'location']) {
      expect(
        validate(`channel.agent.${type}`, buildAgentPayload(buildSampleMedia(type))).errors,
      ).toEqual([]);
    }
  });

  it('a 500-ing integrator fails every case, naming spec 2.2 and 4.2', async () => {
    const url = await startPeer((_req, res) => json(res, 500, { oops: true }));
    const report = await runConformSuite({ suite: 'integrator', url, clock: roomy() });
    expect(report.failed).toBe(11);
    expect(reasons(report.results)[0]).toMatchInlineSnapshot(
      `"reply: HTTP 500 is not a valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)"`,
    );
  });

  it('{"result":"okay"} is not a valid reply', async () => {
    const url = await startPeer((_req, res) => json(res, 200, { result: 'okay' }));
    const report = await runConformSuite({ suite: 'integrator', url, clock: roomy() });
    expect(report.failed).toBe(11);
    expect(reasons(report.results)[0]).toBe(
      'reply: {"result":"okay"} (result is "okay", not "ok") is not a valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)',
    );
  });

  it('posts with the Content-Type the public Chat API page asks for', async () => {
    const types = new Set<string | undefined>();
    const url = await startPeer((req, res) => {
      types.add(req.headers['content-type']);
      json(res, 200, { result: 'ok' });
    });
    const report = await runConformSuite({ suite: 'integrator', url, clock: roomy() });
    expect(report.failed).toBe(0);
    expect([...types]).toEqual(['application/json; charset=utf-8']);
  });

  it('a reply encoded twice (a JSON string holding the object) is named so, the body once', async () => {
    // a Python handler returning json.dumps({"result": "ok"}) from a framework that encodes
    // the returned value again, as one written for the real platform does
    const url = await startPeer((_req, res) =>
      json(res, 200, JSON.stringify(JSON.stringify({ result: 'ok' }))),
    );
    const report = await runConformSuite({ suite: 'integrator', url, clock: roomy() });
    expect(report.failed).toBe(11);
    expect(reasons(report.results)[0]).toBe(
      'reply: "{\\"result\\":\\"ok\\"}" (a JSON string holding an object: encoded twice, send the object itself) is not a valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)',
    );
    const bare = await startPeer((_req, res) => json(res, 200, '"ok"'));
    const plain = await runConformSuite({ suite: 'integrator', url: bare, clock: roomy() });
    expect(reasons(plain.results)[0]).toMatch(/^reply: "ok" is not a valid reply;/);
  });

  it('an error object without a message, and a 404, say what to change (newcomer pass)', async () => {
    const half = await startPeer((_req, res) => json(res, 200, { error: { code: 'E1' } }));
    const report = await runConformSuite({ suite: 'integrator', url: half, clock: roomy() });
    expect(reasons(report.results)[0]).toContain('(error.message is missing)');
    const missing = await startPeer((_req, res) => json(res, 404, {}));
    const wrongPath = await runConformSuite({ suite: 'integrator', url: missing, clock: roomy() });
    expect(reasons(wrongPath.results)[0]).toBe(
      `reply: HTTP 404 at ${missing}/conform: the platform posts to <integrator URL>/<channel public id> (spec 4.2); serve that path, or give the id your endpoint serves with --channel (default "conform")`,
    );
  });

  it('an error object is a valid reply (spec 2.2), with a warning that the agent sees an error', async () => {
    const url = await startPeer((_req, res) =>
      json(res, 200, { error: { code: 'busy', message: 'try later' } }),
    );
    const report = await runConformSuite({ suite: 'integrator', url, clock: roomy() });
    expect(report.failed).toBe(0);
    // newcomer pass: an endpoint refusing every message passed without a word
    const warnings = report.results.flatMap((r) => r.warnings ?? []);
    expect(warnings).toHaveLength(22); // 11 cases, each with two deliveries
    expect(warnings[0]).toBe(
      'warning: the endpoint answered an error object (busy: "try later"): a valid reply (spec 2.2), but the agent is shown an error instead of a delivered message',
    );
  });

  it('a slow integrator fails on reply time (spec 8)', async () => {
    // never answers: the 3 s protocol limit is 30 ms of wall time at this scale
    const url = await startPeer(() => undefined);
    const report = await runConformSuite({ suite: 'integrator', url, clock: fast() });
    expect(report.failed).toBe(11);
    expect(reasons(report.results)[0]).toMatch(
      /^reply time: no complete reply within 3000 ms.*\(spec 8\)$/,
    );
  });

  it('an integrator that answers chunked bodies badly fails only the chunked checks', async () => {
    const url = await startPeer((req, res) =>
      req.headers['transfer-encoding'] === 'chunked'
        ? json(res, 411, {})
        : json(res, 200, { result: 'ok' }),
    );
    const report = await runConformSuite({ suite: 'integrator', url, clock: roomy() });
    const failedChecks = report.results.flatMap((r) =>
      r.steps.filter((s) => s.status === 'failed').map((s) => s.name),
    );
    expect(new Set(failedChecks)).toEqual(new Set(['chunked body']));
    // newcomer pass: a bare "HTTP 411 is not a valid reply" did not say what the step changed
    expect(reasons(report.results).slice(0, 2)).toEqual([
      'reply: HTTP 411 is not a valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)',
      'chunked: this body came with Transfer-Encoding: chunked and no Content-Length, as the platform sends it when the channel is set to chunked (spec 4.2); read the body to its end',
    ]);
    // an endpoint failing both bodies alike is not told about chunking
    const broken = await startPeer((_req, res) => json(res, 500, {}));
    const both = await runConformSuite({ suite: 'integrator', url: broken, clock: roomy() });
    expect(reasons(both.results).filter((r) => r.startsWith('chunked:'))).toEqual([]);
  });

  it('an unreachable receiver is named by its whole URL, path included', async () => {
    const url = `${await deadPeerUrl()}/hooks`;
    await expect(runConformSuite({ suite: 'hooks', url, clock: fast() })).rejects.toMatchObject({
      code: 'SVC_E_PEER_UNREACHABLE',
      message: expect.stringContaining(`the hook receiver at ${url} is unreachable`),
    });
  });

  it('--wait: a receiver that comes up meanwhile is tested; one that does not is named, with the wait', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    // nothing listens for the first two or three tries (every 100 ms), then the receiver does
    const late = new Promise<HookTarget>((resolve, reject) => {
      setTimeout(() => void createHookTarget({ clock: roomy(), port }).then(resolve, reject), 250);
    });
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy(), waitMs: 60_000 });
    closers.push(async () => (await late).close(10));
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThan(0);

    const dead = `${await deadPeerUrl()}/hooks`;
    await expect(
      runConformSuite({ suite: 'hooks', url: dead, clock: fast(), waitMs: 300 }),
    ).rejects.toMatchObject({
      code: 'SVC_E_PEER_UNREACHABLE',
      // refused, as a rule; a loaded machine may see the try time out instead
      message: expect.stringMatching(/is unreachable \(.+, still after 300 ms\)/),
      hint: 'Start the service first, and check the URL and port.',
    });
  });

  it('an unreachable integrator is a network error (exit 3)', async () => {
    await expect(
      runConformSuite({ suite: 'integrator', url: await deadPeerUrl(), clock: fast() }),
    ).rejects.toMatchObject({ code: 'SVC_E_PEER_UNREACHABLE', category: 'network' });
  });
});

describe('conform hooks', () => {
  it('our own hook-target passes every event, both offline names', async () => {
    const target: HookTarget = await createHookTarget({ clock: scaled() });
    closers.push(() => target.close(10));
    const report = await runConformSuite({ suite: 'hooks', url: target.url, clock: roomy() });
    expect(report.failed).toBe(0);
    expect(report.results).toHaveLength(7);
    expect(report.results.at(-1)?.name).toContain('offline_messages');
    expect(report.wrongPeer).toBeUndefined();
  });

  it("each run's events are about one fresh chat; --run-id repeats it", async () => {
    const chats: (number | undefined)[] = [];
    const target: HookTarget = await createHookTarget({
      clock: scaled(),
      onEvent: (e) => {
        if (e.type === 'hook-received') chats.push(e.chatId);
      },
    });
    closers.push(() => target.close(10));
    const runOnce = async (runId?: number) => {
      chats.length = 0;
      const told: { runId: number; chatId: number }[] = [];
      const report = await runConformSuite({
        suite: 'hooks',
        url: target.url,
        clock: roomy(),
        onHookChat: (info) => told.push(info),
        ...(runId === undefined ? {} : { runId }),
      });
      expect(report.failed).toBe(0);
      expect(told).toHaveLength(1);
      const chat = told[0]!.chatId;
      // the five chat events about the chat announced; both offline names about none
      expect(chats).toEqual([chat, chat, chat, chat, chat, undefined, undefined]);
      return told[0]!;
    };
    const first = await runOnce();
    expect(first.chatId).toBe(first.runId * 1000 + 1);
    expect((await runOnce()).chatId).not.toBe(first.chatId);
    expect(await runOnce(first.runId)).toEqual(first);
  });

  it('pointed at svc-cli listen, the failure says which role the URL is', async () => {
    const l = await listener();
    const report = await runConformSuite({ suite: 'hooks', url: l.url, clock: roomy() });
    expect(report.failed).toBeGreaterThan(0);
    expect(report.wrongPeer).toEqual({
      url: l.url,
      command: 'listen',
      plays: 'it plays the integrator and receives agent messages, spec 4.2',
      wants: 'a hook receiver (spec 4.4)',
      wantsCommand: 'hook-target',
    });
  });

  it('pointed at listen under /hooks, where every case passes, it still fails on the role', async () => {
    const l = await listener();
    const url = `${l.url}/hooks`;
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(report.failed).toBe(1);
    expect(report.results.at(-1)).toMatchObject({
      ok: false,
      name: 'the URL is a hook receiver (spec 4.4)',
    });
    expect(report.results.at(-1)?.steps[0]?.details[0]).toContain('is svc-cli listen');
    expect(report.wrongPeer).toMatchObject({ command: 'listen', wantsCommand: 'hook-target' });
  });

  it('conform platform pointed at listen says so too (svc-cli platform sends no role)', async () => {
    const l = await listener();
    const report = await runConformSuite({
      suite: 'platform',
      channelUrl: `${l.url}/r4nd0m/shop`,
      clock: scaled(),
    });
    expect(report.failed).toBeGreaterThan(0);
    expect(report.wrongPeer).toMatchObject({ command: 'listen', wantsCommand: 'platform' });
  });

  it('a bad chat_accepted reply fails with the path and spec 6.2', async () => {
    const url = await startPeer((_req, res, body) => {
      const event = (JSON.parse(body) as { event_name: string }).event_name;
      json(
        res,
        200,
        event === 'chat_accepted' ? { result: 'ok', enable_assign: 'yes' } : { result: 'ok' },
      );
    });
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(report.failed).toBe(1);
    const failed = report.results.find((r) => !r.ok);
    expect(failed?.name).toBe('chat_accepted');
    expect(reasons(report.results)).toEqual([
      expect.stringMatching(/^reply: enable_assign: .*\(spec 6\.2\)$/),
      'the receiver answered HTTP 200 {"result":"ok","enable_assign":"yes"}',
    ]);
  });

  it('quotes a pretty-printed reply on one line (a receiver in Flask debug mode)', async () => {
    const url = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{\n  "data": [\n    {\n      "chat_id": [\n        "1"\n      ]\n    }\n  ]\n}\n');
    });
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(reasons(report.results)).toContain(
      'the receiver answered HTTP 200 {"data":[{"chat_id":["1"]}]}',
    );
    expect(reasons(report.results).filter((r) => r.includes('\n'))).toEqual([]);
  });

  it('a reply that passes with warnings shows them, as hook-fire does', async () => {
    const url = await startPeer((_req, res) => json(res, 200, { result: 'ok', colour: 'red' }));
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(report.failed).toBe(0);
    expect(report.results[0]?.warnings).toEqual([
      expect.stringMatching(/^warning: reply: colour: .*\(spec 6\.2\)/),
    ]);
  });

  it('a receiver that takes offline_message but not offline_messages passes with a warning', async () => {
    const url = await startPeer((_req, res, body) => {
      const event = (JSON.parse(body) as { event_name: string }).event_name;
      // as every receiver found in public code: it knows only the sample's spelling
      json(res, 200, event === 'offline_messages' ? { error: 'unknown event' } : { result: 'ok' });
    });
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(report.failed).toBe(0);
    const last = report.results.at(-1);
    expect(last?.name).toContain('offline_messages');
    expect(last?.warnings?.[0]).toMatch(
      /^warning: reply: .*the receiver takes offline_message but not this spelling/,
    );
  });

  it('a receiver that throws on call_event alone is asked whether it handles that name', async () => {
    const url = await startPeer((_req, res, body) => {
      const event = (JSON.parse(body) as { event_name: string }).event_name;
      // a PHP library that knows five events throws on the sixth: php -S answers 500, empty
      if (event === 'call_event') {
        res.writeHead(500);
        res.end();
        return;
      }
      json(res, 200, { result: 'ok' });
    });
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(report.failed).toBe(1);
    expect(reasons(report.results).slice(1)).toEqual([
      'the receiver answered HTTP 500 (empty body)',
      'the same receiver took chat_accepted, chat_updated and others: does it handle event_name "call_event"? A receiver answers an event it does not act on with 200 {"result":"ok"} (spec 6.2 lists call_event); an account without calls never gets it: --events leaves it out of the suite',
    ]);
  });

  it('names a reply that is the event sent back beside its errors', async () => {
    const url = await startPeer((_req, res, body) => json(res, 200, JSON.parse(body)));
    const report = await runConformSuite({
      suite: 'hooks',
      url,
      clock: roomy(),
      events: ['chat_updated'],
    });
    expect(reasons(report.results).slice(0, 2)).toEqual([
      'reply: result: required; a minimal valid reply is {"result":"ok"} (spec 6.2)',
      'reply: (root): the receiver sent back the event it got as its reply (its fields are not reply fields); a receiver answers with a reply of spec 6.2, such as {"result":"ok"} (spec 6.2)',
    ]);
  });

  it('a receiver that fails every event gets no such question, but where to look', async () => {
    const url = await startPeer((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const report = await runConformSuite({
      suite: 'hooks',
      url,
      clock: roomy(),
      runId: 4242,
    });
    expect(reasons(report.results).filter((r) => r.includes('does it handle'))).toEqual([]);
    expect(reasons(report.results).slice(0, 3)).toEqual([
      'reply: (root): HTTP 500; expected 200 with a JSON reply (spec 4.4)',
      'the receiver answered HTTP 500 (empty body)',
      `HTTP 500: the receiver failed while it handled the event, it did not refuse it; check its log for the error, and for a handler that expects a field this event lacks. To send it again and see the request: svc-cli hook-fire chat_accepted --chat-id 4242001 --url ${url}`,
    ]);
    const offline = report.results.find((r) => r.name === 'offline_message');
    expect(reasons([offline!]).at(-1)).toMatch(/svc-cli hook-fire offline_message --url /);
  });

  it('a 4xx gets no 5xx hint: the receiver refused the event, it did not fail on it', async () => {
    const url = await startPeer((_req, res) => json(res, 404, { error: 'no route' }));
    const report = await runConformSuite({ suite: 'hooks', url, clock: roomy() });
    expect(reasons(report.results).filter((r) => r.includes('failed while'))).toEqual([]);
  });

  it('a receiver that never answers fails on the assumed 10 s', async () => {
    const url = await startPeer(() => undefined);
    const report = await runConformSuite({ suite: 'hooks', url, clock: fast(), timeoutMs: 1000 });
    expect(report.failed).toBe(7);
    expect(reasons(report.results)[0]).toMatch(/^reply time: no complete reply within 1000 ms/);
  });
});

describe('conform platform', () => {
  /**
   * The redelivery checks allow 1000 protocol ms: 200 wall ms at 0.2, which a loaded CI
   * machine keeps (at 0.05, 50 ms, a cold first delivery made attempt 3 read as 4.3 s).
   */
  const redeliveryScale = () => createClock({ timeScale: 0.2 });
  /**
   * The case that runs the whole suite on our own platform, its redelivery case included: at
   * 0.5 with the busy slack below. With the default 1000 ms (500 wall ms) a full run beside a
   * CPU hog still read an attempt late now and then; the schedule itself is held to the
   * millisecond on the virtual clock (test/integration/platform-channel.test.ts).
   */
  const scheduleScale = () => createClock({ timeScale: 0.5 });
  /**
   * Where the case is not about the schedule (a control token, a bot on the channel), the
   * run gets all the slack the schedule allows: 2900 protocol ms an attempt may be off (just
   * under the 3 s between attempts), on a clock at 0.5, so 1.45 s of wall time. At 0.2 (580
   * ms) a full suite beside a CPU hog still failed them now and then. The schedule's own cases
   * keep the default tolerance and scale.
   */
  const BUSY_SLACK = 2900;
  const busyScale = () => createClock({ timeScale: 0.5 });
  async function platform(
    token?: string,
    clock = redeliveryScale(),
  ): Promise<{ platform: Platform; channelUrl: string }> {
    const p = createPlatform({
      clock,
      channels: [{ id: 'shop' }],
    });
    await p.listen({
      port: 0,
      ...(token === undefined ? {} : { access: { allowOrigins: [], token } }),
    });
    closers.push(() => p.close());
    const channel = [...p.core.state.channels.values()][0]!;
    return { platform: p, channelUrl: p.core.channelInfo(channel).url };
  }

  it('a mistyped random string in --channel-url is said to be the likely cause', async () => {
    const { channelUrl } = await platform();
    const wrong = channelUrl.replace(/\/[^/]+\/shop$/, '/wrong/shop');
    // every answer is an immediate 404, so the scale costs nothing; at 0.01 a loaded machine
    // let a request outlive its 30 ms of wall, and a timeout stood where the 404 should
    const report = await runConformSuite({ suite: 'platform', channelUrl: wrong, clock: roomy() });
    const details = reasons(report.results);
    expect(details.length).toBeGreaterThan(0);
    expect(details.filter((d) => d.includes('HTTP 404'))).toEqual(
      details.filter((d) => d.includes('check --channel-url, its random string and public id')),
    );
    expect(details.some((d) => d.startsWith('POST text: HTTP 404'))).toBe(true);
  });

  it('a taken --integrator-listen-port stops the run (exit 2), no case failed on the peer', async () => {
    // the same scale on both sides, else the redelivery case is skipped before it listens
    const { channelUrl } = await platform(undefined, roomy());
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as AddressInfo).port;
    const run = runConformSuite({
      suite: 'platform',
      channelUrl,
      clock: roomy(),
      integratorListenPort: port,
    });
    await expect(run).rejects.toMatchObject({
      code: 'SVC_E_PORT_IN_USE',
      category: 'input',
      hint: expect.stringMatching(/^Pick another --integrator-listen-port, or/),
    });
  });

  it('our own platform passes, the redelivery schedule included (0, 3, 6 s)', async () => {
    const { channelUrl, platform: p } = await platform(undefined, scheduleScale());
    const report = await runConformSuite({
      suite: 'platform',
      channelUrl,
      clock: scheduleScale(),
      toleranceMs: BUSY_SLACK,
    });
    expect(reasons(report.results)).toEqual([]);
    expect(report.skipped).toBe(0);
    const redelivery = report.results.at(-1)!;
    expect(redelivery.steps.map((s) => [s.name, s.status])).toEqual([
      ['attempt 1 at 0 s', 'passed'],
      ['attempt 2 at 3 s', 'passed'],
      ['attempt 3 at 6 s', 'passed'],
      ["attempt 3's ok ends the series", 'passed'],
    ]);
    // each attempt's check says when it arrived (its own time is when it was checked)
    expect(redelivery.steps[1]?.details).toEqual([
      expect.stringMatching(/^note: arrived at \+\d+\.\d{3} s$/),
    ]);
    // the suite leaves the channel as it found it
    expect(p.core.state.channels.get('shop')?.integratorUrl).toBeUndefined();
    // and closes the chats it opened: the console's "last active customer" is not one of them
    const chats = [...p.core.state.chats.values()];
    expect(chats.length).toBeGreaterThan(0);
    expect(chats.filter((c) => c.mode !== 'closed')).toEqual([]);
  });

  it('a signal stops the suite after the case under way: what it saw is in the recording', async () => {
    const { channelUrl } = await platform(undefined, busyScale());
    const recordFile = join(mkdtempSync(join(tmpdir(), 'svc-conform-abort-')), 'run.ndjson');
    const controller = new AbortController();
    const report = await runConformSuite({
      suite: 'platform',
      channelUrl,
      clock: busyScale(),
      recordFile,
      signal: controller.signal,
      // the first case that opens a chat: abort as it ends, as Ctrl-C would
      onCase: (r) => r.name === 'text message accepted' && controller.abort(),
    });
    expect(report.interrupted).toBe(true);
    expect(report.results.at(-1)?.name).toBe('text message accepted');
    expect(report.invariants).toBeUndefined(); // a run cut short is not judged as a whole
    const lines = readFileSync(recordFile, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map((line) => JSON.parse(line) as { type: string; chat?: number });
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.type === 'exchange')).toBe(true);
    // the platform's chat list gave the chat ids: the report draws them as conversations
    expect(records.some((r) => r.chat !== undefined)).toBe(true);
  });

  it('a simulator that wants a control token: said in each skip without one, all checks with it', async () => {
    const { channelUrl } = await platform('t0ken-for-conform', busyScale());
    const without = await runConformSuite({
      suite: 'platform',
      channelUrl,
      clock: busyScale(),
      toleranceMs: BUSY_SLACK,
    });
    expect(without.failed).toBe(0);
    const skips = without.results.flatMap((r) =>
      r.steps.filter((s) => s.status === 'skipped').flatMap((s) => s.details),
    );
    expect(skips.length).toBeGreaterThanOrEqual(6); // the cut, the empty sender, 4 attempts
    for (const skip of skips) expect(skip).toMatch(/wants a control token .*--control-token/);
    const withToken = await runConformSuite({
      suite: 'platform',
      channelUrl,
      clock: busyScale(),
      toleranceMs: BUSY_SLACK,
      controlToken: 't0ken-for-conform',
    });
    expect(reasons(withToken.results)).toEqual([]);
    expect(withToken.skipped).toBe(0);
  });

  it("with a bot on the channel, counts only its own message's attempts, not the bot's answer", async () => {
    // bot-sim answers every customer message; its answer reaches the embedded listener too,
    // and is failed twice as well (newcomer pass: attempt 2 "arrived at 0.21 s")
    const clock = busyScale();
    const bot = await createBotProvider({ token: 'bt', providerId: 'pv', clock });
    closers.push(() => bot.close(10));
    const p = createPlatform({
      clock,
      channels: [{ id: 'shop' }],
      bot: { providerUrl: bot.url, token: 'bt', providerId: 'pv' },
    });
    const server = await p.listen({ port: 0 });
    closers.push(() => p.close());
    bot.setPlatformUrl(server.url);
    const channel = [...p.core.state.channels.values()][0]!;
    const report = await runConformSuite({
      suite: 'platform',
      channelUrl: p.core.channelInfo(channel).url,
      clock: busyScale(),
      toleranceMs: BUSY_SLACK,
    });
    expect(reasons(report.results)).toEqual([]);
    expect(report.results.at(-1)!.steps.map((s) => s.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
    ]);
  });

  it('skips the redelivery schedule, saying why, when the platform runs on another time scale', async () => {
    const { channelUrl } = await platform(); // at 0.2
    const report = await runConformSuite({
      suite: 'platform',
      channelUrl,
      clock: createClock({ timeScale: 0.1 }),
    });
    const redelivery = report.results.at(-1)!;
    expect(redelivery.name).toMatch(/^redelivery schedule/);
    expect(redelivery.steps.map((s) => s.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);
    expect(redelivery.skipped).toContain(
      'the platform runs at time scale 0.2 and this conform at 0.1, so its 3 s would read as 6.00 s here; give both the same --time-scale',
    );
  });

  it('a platform that answers 200 for unknown ids fails 404 checks; no control API: skipped', async () => {
    const url = await startPeer((req, res) =>
      req.url?.endsWith('/status') ? res.end('1') : json(res, 200, { result: 'ok' }),
    );
    const report = await runConformSuite({
      suite: 'platform',
      channelUrl: `${url}/s3cr3t/shop`,
      // nothing here waits for protocol time, but a request's 10 s timeout is protocol time:
      // at 0.05 it was 500 wall ms, which a request to this peer outlasted beside a CPU hog
      clock: roomy(),
    });
    const failed = report.results.filter((r) => !r.ok).map((r) => r.name);
    expect(failed).toEqual(['unknown public id', 'wrong random string']);
    expect(reasons(report.results)[0]).toBe(
      'POST: HTTP 200; expected 404 when no channel has that public id (spec 4.1, 7.1)',
    );
    expect(reasons(report.results)[2]).toBe(
      "POST: HTTP 200; expected 404 when the random string is not the channel's (spec 4.1, 5.1)",
    );
    const redelivery = report.results.at(-1)!;
    expect(redelivery.skipped).toMatch(/no svc control API/);
    // and the offline form, which only an svc simulator's widget channel takes
    const offline = report.results.at(-2)!;
    expect(offline.name).toBe('offline form while agents are online');
    expect(offline.skipped).toMatch(/no svc control API .* nor svc-cli's widget channel/);
    // and the page, which only an svc simulator's widget channel serves
    const page = report.results.at(-3)!;
    expect(page.name).toBe('page callbacks follow the pushes');
    expect(page.skipped).toMatch(/no svc control API .* nor svc-cli's widget channel/);
    expect(report.skipped).toBe(3);
  });

  it('the summary says which passes were checked in part', async () => {
    const url = await startPeer((req, res) =>
      req.url?.endsWith('/status') ? res.end('1') : json(res, 200, { result: 'ok' }),
    );
    const test = createTestContext({ cwd: process.cwd() });
    const code = await runInProcess(test, [
      '--time-scale',
      '0.05',
      'conform',
      'platform',
      '--channel-url',
      `${url}/s3cr3t/shop`,
    ]);
    expect(code).toBe(1);
    expect(test.stdout()).toContain(
      'text over 1000 characters is accepted and cut  (spec 2.1, 7.1, 8 · 2 steps, 1 skipped',
    );
    expect(test.stdout()).toContain(
      '2 of the passed cases were checked in part: steps marked - could not be observed on this peer',
    );
  });

  it('a channel URL without random string and id is an input error', async () => {
    await expect(
      runConformSuite({ suite: 'platform', channelUrl: 'http://127.0.0.1:1/', clock: fast() }),
    ).rejects.toMatchObject({ code: 'SVC_E_CHANNEL_URL', category: 'input' });
  });
});
