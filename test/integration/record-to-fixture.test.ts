import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeRecordedSession, recordSession } from '../helpers/record-session.js';
import { conversationSchema } from '../../src/conversation/format.js';
import {
  convertRecording,
  convertRecordingCounted,
} from '../../src/conversation/record/to-fixture.js';
import { loadConversations } from '../../src/conversation/load.js';
import { readRecording } from '../../src/conversation/record/read-recording.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { createClock } from '../../src/clock.js';
import { createPlatform } from '../../src/platform/index.js';
import { freePort } from '../helpers/free-port.js';
import {
  closeHooksSession,
  recordConsoleCallSession,
  recordHooksSession,
  RECORDED_ACCEPTED_REPLY,
} from '../helpers/record-hooks-session.js';

afterEach(closeRecordedSession);
afterEach(closeHooksSession);

describe('record to-fixture', () => {
  it.each(['session.ndjson', 'session.har'])(
    'converts a %s recording that replays green',
    async (name) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-record-'));
      const file = join(dir, name);
      await recordSession(file);
      const conversation = convertRecording({
        records: await readRecording(file),
        name: 'recorded',
      });
      expect(conversation.setup).toEqual({
        integrator: {
          faults: { sequence: ['status:503', 'none', 'none', 'error:blocked:user blocked'] },
        },
      });
      expect(conversation.steps.slice(0, 5)).toEqual([
        {
          customer: { text: 'Hi, where is my order?', sender: { id: 'c-42', name: 'Jane' } },
          response: { status: 200 },
        },
        {
          customer: {
            media: {
              type: 'photo',
              file: 'https://x.test/r.jpg',
              file_name: 'r.jpg',
              file_size: 12,
            },
            sender: { id: 'c-42', name: 'Jane' },
          },
          response: { status: 200 },
        },
        {
          customer: { text: 'lost', sender: { id: '' } },
          response: { status: 400 },
        },
        {
          agent: { text: 'Let me check.', to: 'c-42' },
          delivery: { result: 'delivered', attempts: 2 },
        },
        {
          // the integrator's 503 on the first attempt is expected of it again
          expect: {
            integrator: {
              message: { type: 'text', text: 'Let me check.' },
              $attempt: 1,
              $status: 503,
            },
          },
        },
      ]);
      expect(conversation.steps).toContainEqual({
        agent: { text: 'Shipped today.', to: 'c-42' },
        delivery: { result: 'error-reply', attempts: 1 },
      });
      const parsed = conversationSchema.parse(conversation);
      const result = await replayConversation({ conversation: parsed });
      expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
      expect(result.ok).toBe(true);
    },
  );

  it.each([
    ['with attempt numbers', false],
    ['without them (a HAR from elsewhere)', true],
  ])(
    'keeps the redelivery attempts of an agent message sent without message.id, %s',
    async (_, bare) => {
      const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'session.ndjson');
      // 'Let me check.' refused once (503), then accepted; sent again later, accepted at once
      await recordSession(file, undefined, [
        { kind: 'status', status: 503 },
        { kind: 'none' },
        { kind: 'none' },
        { kind: 'none' },
      ]);
      // a platform that sends no message.id: each attempt carries the same body
      const records = (await readRecording(file)).map((r) => {
        if (!r.kind?.startsWith('channel.agent.')) return r;
        const body = JSON.parse(r.request.body ?? '{}') as { message: { id?: string } };
        delete body.message.id;
        const { attempt: _attempt, cause: _cause, ...rest } = r;
        return { ...(bare ? rest : r), request: { ...r.request, body: JSON.stringify(body) } };
      });
      const conversation = convertRecording({ records, name: 'no message ids' });
      const agentSteps = conversation.steps.filter((s) => 'agent' in s);
      expect(agentSteps).toEqual([
        {
          agent: { text: 'Let me check.', to: 'c-42' },
          delivery: { result: 'delivered', attempts: 2 },
        },
        { agent: { typing: 'start', to: 'c-42' }, delivery: { result: 'delivered', attempts: 1 } },
        {
          agent: { text: 'Shipped today.', to: 'c-42' },
          delivery: { result: 'delivered', attempts: 1 },
        },
      ]);
      expect(conversation.setup).toEqual({
        integrator: { faults: { sequence: ['status:503', 'none', 'none', 'none'] } },
      });
      const result = await replayConversation({
        conversation: conversationSchema.parse(conversation),
      });
      expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    },
  );

  it('an agent text sent again after an accepted attempt, with no message.id, is a message of its own', () => {
    const agentRecord = (seq: number, attempt: number, status: number) => ({
      type: 'exchange' as const,
      seq,
      run: 'r1',
      at: new Date(seq * 1000).toISOString(),
      protocolMs: seq * 1000,
      iface: 'channel' as const,
      direction: 'out' as const,
      kind: 'channel.agent.text',
      attempt,
      request: {
        method: 'POST',
        url: 'http://integrator.test/shop',
        headers: {},
        body: JSON.stringify({ recipient: { id: 'c-1' }, message: { type: 'text', text: 'ok' } }),
      },
      response: {
        status,
        headers: {},
        body: status === 200 ? '{"result":"ok"}' : '',
      },
    });
    const conversation = convertRecording({
      records: [agentRecord(1, 1, 200), agentRecord(2, 1, 500), agentRecord(3, 2, 200)],
    });
    expect(conversation.steps.filter((s) => 'agent' in s)).toEqual([
      { agent: { text: 'ok', to: 'c-1' }, delivery: { result: 'delivered', attempts: 1 } },
      { agent: { text: 'ok', to: 'c-1' }, delivery: { result: 'delivered', attempts: 2 } },
    ]);
  });

  it('--peer-failures drop writes the conversation for an integrator that accepts at once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'session.ndjson');
    await recordSession(file);
    const { conversation, failures } = convertRecordingCounted({
      records: await readRecording(file),
      peerFailures: 'drop',
    });
    expect(failures).toEqual({ integrator: 1, hooks: 0 });
    // the 503 is gone from the listener's answers; the error reply is an answer, and stays
    expect(conversation.setup).toEqual({
      integrator: { faults: { sequence: ['none', 'none', 'error:blocked:user blocked'] } },
    });
    expect(conversation.steps).toContainEqual({
      agent: { text: 'Let me check.', to: 'c-42' },
      delivery: { result: 'delivered', attempts: 1 },
    });
    const expectations = conversation.steps.filter((s) => 'expect' in s);
    expect(JSON.stringify(expectations)).not.toContain('$status');
    expect(conversation.description).toContain('1 refused attempt of the recording left out');
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    // kept (the default), the same recording counts the failure it expects again
    expect(convertRecordingCounted({ records: await readRecording(file) }).failures).toEqual({
      integrator: 1,
      hooks: 0,
    });
  });

  it('--peer-failures drop with every attempt refused expects one accepted attempt', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'session.ndjson');
    await recordSession(file, undefined, [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
    ]);
    const records = await readRecording(file);
    const kept = convertRecordingCounted({ records });
    expect(kept.conversation.steps).toContainEqual({
      agent: { text: 'Let me check.', to: 'c-42' },
      delivery: { result: 'failed', attempts: 3 },
    });
    const { conversation, failures } = convertRecordingCounted({ records, peerFailures: 'drop' });
    expect(failures.integrator).toBe(3);
    expect(conversation.steps).toContainEqual({
      agent: { text: 'Let me check.', to: 'c-42' },
      delivery: { result: 'delivered', attempts: 1 },
    });
    expect(conversation.steps).toContainEqual({
      expect: { integrator: { message: { type: 'text', text: 'Let me check.' }, $attempt: 1 } },
    });
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('converts a listen recording: the chat is opened by a placeholder customer message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-record-'));
    const listenFile = join(dir, 'listen.ndjson');
    await recordSession(join(dir, 'platform.ndjson'), listenFile);
    const conversation = convertRecording({ records: await readRecording(listenFile) });
    expect(conversation.steps[0]).toMatchObject({ customer: { sender: { id: 'c-42' } } });
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.ok).toBe(true);
  });

  it('a recording without channel messages is an input error', () => {
    expect(() => convertRecording({ records: [] })).toThrow(
      expect.objectContaining({ code: 'SVC_E_RECORDING' }),
    );
    // a proxy hooks recording: what it holds is said (newcomer pass)
    const hook = {
      type: 'exchange' as const,
      seq: 1,
      at: new Date(0).toISOString(),
      protocolMs: 0,
      iface: 'hook' as const,
      direction: 'in' as const,
      request: { method: 'POST', url: 'http://127.0.0.1:8731/hooks', body: '{}' },
      response: { status: 200, body: '{"result":"ok"}' },
    };
    expect(() => convertRecording({ records: [hook] })).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(
          'no customer message, agent message or control request (only hook exchanges, as a `proxy hooks` recording holds)',
        ),
      }),
    );
  });

  it('converts no event pushed to a widget page into a step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-record-'));
    const file = join(dir, 'session.ndjson');
    await recordSession(file);
    const records = await readRecording(file);
    const push = (seq: number, chat: number | undefined) => ({
      type: 'exchange' as const,
      seq,
      ...(records[0]?.run === undefined ? {} : { run: records[0].run }),
      at: new Date(0).toISOString(),
      protocolMs: 0,
      iface: 'widget' as const,
      direction: 'out' as const,
      kind: 'widget.push.agent_message',
      ...(chat === undefined ? {} : { chat }),
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:8800/_sim/widget/events?visitor=v-1',
        body: '{"type":"agent_message","text":"Hello"}',
      },
      notes: ['sse push', `id: ${seq}`],
    });
    // the pushes of a widget chat recorded between the channel's exchanges
    const mixed = records.flatMap((r, i) => [r, push(1000 + i, 1)]);
    expect(convertRecording({ records: mixed, name: 'recorded' })).toEqual(
      convertRecording({ records, name: 'recorded' }),
    );
    // a widget chat alone: said to be that, not a proxy's recording
    expect(() => convertRecording({ records: [push(1, undefined)] })).toThrow(
      expect.objectContaining({
        code: 'SVC_E_RECORDING',
        message: expect.stringContaining(
          'no customer message, agent message or control request (only widget exchanges), so',
        ),
      }),
    );
  });

  it('a binary file, or one line that is not JSON, is said to be so, not an empty recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-record-'));
    writeFileSync(join(dir, 'bin.ndjson'), Buffer.from([0x7b, 0x00, 0xff, 0x0a, 0x01]));
    await expect(readRecording(join(dir, 'bin.ndjson'))).rejects.toMatchObject({
      code: 'SVC_E_RECORDING',
      message: expect.stringContaining('it is binary (NUL bytes), not an NDJSON or HAR recording'),
    });
    writeFileSync(join(dir, 'one.ndjson'), 'not json'); // no newline: the last line too
    await expect(readRecording(join(dir, 'one.ndjson'))).rejects.toMatchObject({
      message: expect.stringContaining('line 1 is not JSON'),
      hint: expect.stringContaining('A recording is NDJSON, one exchange record per line'),
    });
  });

  it('a recording that began with agents offline sets them offline, and replays green', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'offline.ndjson');
    const [offline] = await loadConversations(['fixtures/conversations/hook-offline-message.json']);
    const recorded = await replayConversation({
      conversation: offline!.conversation,
      recordFile: file,
    });
    expect(recorded.ok).toBe(true);
    const conversation = convertRecording({ records: await readRecording(file) });
    expect(conversation.setup).toMatchObject({ agents: 'offline' });
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('a later run that began with agents offline turns them offline between the runs', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'two.ndjson');
    const [online, offline] = await loadConversations([
      'fixtures/conversations/text-both-ways.json',
      'fixtures/conversations/hook-offline-message.json',
    ]);
    for (const { conversation } of [online!, offline!])
      expect((await replayConversation({ conversation, recordFile: file })).ok).toBe(true);
    const conversation = convertRecording({ records: await readRecording(file) });
    expect(conversation.setup).not.toHaveProperty('agents');
    const agentSteps = conversation.steps.filter((s) => 'agents' in s);
    expect(agentSteps).toEqual([{ agents: 'offline' }, { agents: 'online' }]);
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });
});

describe('record to-fixture with hooks', () => {
  it.each(['hooks.ndjson', 'hooks.har'])(
    'a %s recording becomes hook expectations and hook-target replies that replay green',
    async (name) => {
      const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), name);
      await recordHooksSession(file);
      const conversation = convertRecording({ records: await readRecording(file) });
      expect(conversation.setup?.hooks).toEqual({
        replies: {
          chat_accepted: RECORDED_ACCEPTED_REPLY,
          chat_assigned: { result: 'ok' },
          chat_finished: { result: 'FAILURE' },
        },
      });
      const agent = { id: 1, name: expect.any(String) };
      const visitor = { name: 'Jane', email: 'jane@example.com' };
      expect(conversation.steps.slice(-5)).toEqual([
        {
          control: { method: 'POST', path: '/_sim/chats/1/assign', body: {} },
          response: { status: 200 },
        },
        { close: { customer: 'c-7' } },
        {
          expect: {
            hook: { event_name: 'chat_accepted', agent, visitor, $reply: RECORDED_ACCEPTED_REPLY },
          },
        },
        {
          expect: {
            hook: { event_name: 'chat_assigned', agent, visitor, $reply: { result: 'ok' } },
          },
        },
        {
          expect: {
            hook: { event_name: 'chat_finished', visitor, $reply: { result: 'FAILURE' } },
          },
        },
      ]);
      const result = await replayConversation({
        conversation: conversationSchema.parse(conversation),
      });
      expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
      expect(result.ok).toBe(true);
    },
  );
});

describe('record to-fixture --peer-failures with hooks', () => {
  it('a failed hook reply is expected again, or left out with drop', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'hooks.ndjson');
    await recordHooksSession(file);
    // the receiver answered chat_assigned 500 (as a staging receiver did before its fix)
    const records = (await readRecording(file)).map((r) =>
      r.iface === 'hook' && r.direction === 'out' && r.request.body?.includes('"chat_assigned"')
        ? { ...r, response: { ...r.response!, status: 500, body: '' } }
        : r,
    );
    const kept = convertRecordingCounted({ records });
    expect(kept.failures).toEqual({ integrator: 0, hooks: 1 });
    expect(kept.conversation.setup?.hooks?.faults?.sequence).toContain('status:500');
    expect(JSON.stringify(kept.conversation.steps)).toContain('"$status":500');
    const dropped = convertRecordingCounted({ records, peerFailures: 'drop' });
    expect(dropped.failures).toEqual({ integrator: 0, hooks: 1 });
    expect(dropped.conversation.setup?.hooks?.faults).toBeUndefined();
    expect(JSON.stringify(dropped.conversation.steps)).not.toContain('$status');
    expect(dropped.conversation.steps).toContainEqual({
      expect: { hook: expect.objectContaining({ event_name: 'chat_assigned' }) },
    });
    const result = await replayConversation({
      conversation: conversationSchema.parse(dropped.conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });
});

describe('HAR written by the journal', () => {
  it('a CRM link pressed in the agent console (no control request recorded) replays as one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'console.ndjson');
    await recordHooksSession(file, 'console');
    const records = await readRecording(file);
    expect(records.some((r) => r.request.url.includes('/assign'))).toBe(false);
    const conversation = convertRecording({ records });
    expect(conversation.steps).toContainEqual({
      control: { method: 'POST', path: '/_sim/chats/1/assign', body: {} },
    });
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each([
    ['/call +49 30 1234567', { phone: '+49 30 1234567', chatId: 1 }, 'end'],
    [
      '/call +49301234567 error busy',
      { phone: '+49301234567', chatId: 1, outcome: 'error', reason: 'busy' },
      'error',
    ],
  ])(
    'a call started in the agent console (%s) replays as a control call',
    async (line, body, last) => {
      const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'call.ndjson');
      await recordConsoleCallSession(file, line);
      const records = await readRecording(file);
      expect(records.some((r) => r.request.url.includes('/_sim/calls'))).toBe(false);
      const conversation = convertRecording({ records });
      expect(conversation.steps).toContainEqual({
        control: { method: 'POST', path: '/_sim/calls', body },
        response: { status: 202 },
      });
      // the last status comes 40 s (end) or 10 s (error) after the start: replay waits for it
      const statuses = conversation.steps.flatMap((s) =>
        'expect' in s && (s.expect.hook as { event_name?: string })?.event_name === 'call_event'
          ? [{ call: (s.expect.hook as { call: unknown }).call, within: s.expect.within }]
          : [],
      );
      expect(statuses.at(-1)?.call).toEqual({ type: 'callback', status: last });
      // the default 15 s, and the delay rounded up to a second (wall jitter at 100x adds ms)
      expect(statuses.at(-1)?.within).toBeGreaterThanOrEqual(last === 'end' ? 55_000 : 25_000);
      const result = await replayConversation({
        conversation: conversationSchema.parse(conversation),
      });
      expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
      expect(result.ok).toBe(true);
    },
  );

  it('two runs recorded into one file replay one after the other, chat ids counted on', async () => {
    // --record appends; each run's seq and chat ids start at 1 again
    const file = join(mkdtempSync(join(tmpdir(), 'svc-record-')), 'twice.ndjson');
    await recordSession(file); // leaves its chat open
    await closeRecordedSession();
    await recordHooksSession(file, 'console'); // chat 1 of its run: assigned and closed
    const records = await readRecording(file);
    expect(new Set(records.map((r) => r.run)).size).toBe(2);
    const conversation = convertRecording({ records });
    const customers = conversation.steps.flatMap((s) =>
      'customer' in s ? [(s.customer as { sender?: { id?: string } }).sender?.id] : [],
    );
    // the first run's customer writes before the second run's, and is closed in between
    expect(customers).toEqual(['c-42', 'c-42', '', 'c-7']); // '': a refused message
    const firstOfRun2 = conversation.steps.findIndex(
      (s) => 'customer' in s && (s.customer as { sender?: { id?: string } }).sender?.id === 'c-7',
    );
    expect(conversation.steps[firstOfRun2 - 1]).toEqual({ close: { customer: 'c-42' } });
    // the second run's chat 1 is the replay's chat 2
    expect(conversation.steps).toContainEqual({
      control: { method: 'POST', path: '/_sim/chats/2/assign', body: {} },
    });
    expect(conversation.description).toContain('The recording holds 2 runs');
    const result = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('has the fields HAR 1.2 viewers require', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-har-'));
    const file = join(dir, 'session.har');
    await recordSession(file);
    const har = JSON.parse(readFileSync(file, 'utf8')) as {
      log: Record<string, unknown> & { entries: Array<Record<string, unknown>> };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toMatchObject({ name: 'svc-cli', version: expect.any(String) });
    expect(har.log.entries.length).toBeGreaterThan(5);
    for (const entry of har.log.entries) {
      expect(new Date(entry.startedDateTime as string).toISOString()).toBe(entry.startedDateTime);
      expect(entry.time).toBeGreaterThanOrEqual(0);
      expect(entry.request).toMatchObject({
        method: expect.any(String),
        url: expect.stringMatching(/^http/),
        httpVersion: expect.any(String),
        cookies: [],
        headers: expect.any(Array),
        queryString: expect.any(Array),
        headersSize: -1,
        bodySize: expect.any(Number),
      });
      expect(entry.response).toMatchObject({
        status: expect.any(Number),
        statusText: expect.any(String),
        httpVersion: expect.any(String),
        cookies: [],
        headers: expect.any(Array),
        redirectURL: '',
        headersSize: -1,
        bodySize: expect.any(Number),
        content: { size: expect.any(Number), mimeType: expect.any(String) },
      });
      expect(entry.cache).toEqual({});
      const { send, wait, receive } = entry.timings as {
        send: number;
        wait: number;
        receive: number;
      };
      expect(send + wait + receive).toBeCloseTo(entry.time as number, 6);
      expect(entry._svc).toMatchObject({
        iface: expect.any(String),
        direction: expect.stringMatching(/^(in|out)$/),
      });
    }
  });
});

describe('record to-fixture: a bot whose answer holds the client id', () => {
  /**
   * A bot written for the real platform that puts the client id into a link ("...?apple_id=")
   * and posts it as its BOT_MESSAGE to wherever `target` says (spec 4.3, 6.1).
   */
  async function linkBot(): Promise<{
    url: string;
    target: { base: string };
    close: () => Promise<void>;
  }> {
    const target = { base: '' };
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        res.writeHead(200).end();
        const event = JSON.parse(text) as { event: string; client_id: string; chat_id: string };
        if (event.event !== 'CLIENT_MESSAGE') return;
        void fetch(`${target.base}/webhooks/pv/tok`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            event: 'BOT_MESSAGE',
            id: randomUUID(),
            client_id: event.client_id,
            chat_id: event.chat_id,
            message: {
              type: 'TEXT',
              text: `https://auth.example/login?apple_id=${event.client_id}&mode=login`,
              timestamp: 1700000000,
            },
          }),
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`,
      target,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  it('writes the id as a reference, so the recording replays green with fresh ids', async () => {
    const bot = await linkBot();
    try {
      const platform = createPlatform({
        clock: createClock(),
        channels: [{ id: 'shop' }],
        bot: { providerUrl: bot.url, token: 'tok', providerId: 'pv' },
      });
      await platform.listen({ port: 0 });
      bot.target.base = platform.core.baseUrl;
      const channel = [...platform.core.state.channels.values()][0]!;
      const seen = new Promise<void>((resolve) =>
        platform.core.on((e) => {
          if (e.type === 'bot-message') resolve();
        }),
      );
      await fetch(platform.core.channelInfo(channel).url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'login' } }),
      });
      await seen;
      const records = [...platform.core.journal.entries()];
      await platform.close();
      const conversation = convertRecording({ records, name: 'link bot' });
      const texts = JSON.stringify(conversation.steps).match(/apple_id=[^&]*/g);
      expect(new Set(texts)).toEqual(new Set(['apple_id=${client-message-1.client_id}']));
      // another run id: the bot answers the fresh client (run id 4711: client 4711501)
      const port = await freePort();
      bot.target.base = `http://127.0.0.1:${port}`;
      const result = await replayConversation({
        conversation: conversationSchema.parse(conversation),
        botUrl: bot.url,
        botToken: 'tok',
        platformPort: port,
        runId: 4711,
        timeScale: 0.2,
      });
      expect(result.steps.filter((s) => s.status === 'failed')).toEqual([]);
      expect(result.ok).toBe(true);
    } finally {
      await bot.close();
    }
  });
});
