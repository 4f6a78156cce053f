/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import {
  assignChat,
  closeChat,
  rateChat,
  sendAgentMessage,
  sendOfflineForm,
  setAgentsOnline,
  startCall,
  updateVisitor,
  type PlatformEvent,
} from '../../src/platform/index.js';
import { SAMPLE_CRM_LINK, type HookTargetEvent } from '../../src/roles/hooks/index.js';
import { closeAll, deadUrl, post, startHookPlatform, startTarget } from '../helpers/hooks.js';

afterEach(closeAll);

type Sent = Extract<PlatformEvent, { type: 'hook-sent' }>;
type Received = Extract<HookTargetEvent, { type: 'hook-received' }>;
const sentOf = (events: PlatformEvent[]) => events.filter((e): e is Sent => e.type === 'hook-sent');
const receivedOf = (events: HookTargetEvent[]) =>
  events.filter((e): e is Received => e.type === 'hook-received');
type Reply = Extract<PlatformEvent, { type: 'hook-reply' }>;
const repliesOf = (events: PlatformEvent[]) =>
  events.filter((e): e is Reply => e.type === 'hook-reply');

const customer = (text: string, sender: Record<string, string> = {}) => ({
  sender: { id: 'c-1', name: 'Jane', ...sender },
  message: { type: 'text', text },
});

describe('platform --hook-url: a whole chat lifecycle into hook-target', () => {
  it('sends every event, each valid, consistent within the chat, and uses the replies', async () => {
    const { target, events: received } = await startTarget();
    const { platform, clock, events, channelUrl } = await startHookPlatform({ url: target.url });
    const { core } = platform;
    const replies = () => repliesOf(events).length;

    expect(await post(channelUrl, customer('Hi, where is my order?'))).toMatchObject({
      status: 200,
    });
    // the agent presses Reply: chat_accepted; its reply shows CRM data
    await sendAgentMessage(core, { chatId: 1, message: { type: 'text', text: 'Let me check.' } });
    await clock.runUntil(() => events.some((e) => e.type === 'crm-data'));
    const crm = events.find((e) => e.type === 'crm-data');
    expect(crm).toMatchObject({
      shown: true,
      enableAssign: true,
      crmLink: SAMPLE_CRM_LINK,
      contactInfo: { name: 'Jane' }, // the visitor's own name, echoed
    });
    expect(core.state.chats.get(1)?.ext.hooks).toMatchObject({ crmLink: SAMPLE_CRM_LINK });

    // visitor data changes: from the sender fields, then the control API (user token)
    await post(channelUrl, customer('my mail', { email: 'jane@example.org' }));
    await clock.runUntil(() => replies() >= 2);
    updateVisitor(core, { chatId: 1 }, { userToken: 'tok-7f3a' });
    await clock.runUntil(() => replies() >= 3);
    // the agent uses the crm_link button
    expect(assignChat(core, { chatId: 1 }).assignTo).toBe(SAMPLE_CRM_LINK);
    await clock.runUntil(() => replies() >= 4);
    rateChat(core, { chatId: 1 }, { rate: 'positive' });
    closeChat(core, { chatId: 1 });
    await clock.runUntil(() => replies() >= 5);
    // a callback call that ends, and one that fails
    startCall(core, { phone: '+49 30 1234567', chatId: 1, outcome: { kind: 'end', talkMs: 1000 } });
    await clock.runUntil(() => replies() >= 9);
    startCall(core, { phone: '+49 30 7654321', outcome: { kind: 'error', reason: 'busy' } });
    await clock.runUntil(() => replies() >= 12);
    // agents go offline; a visitor sends the offline form
    setAgentsOnline(core, false);
    sendOfflineForm(core, { name: 'Max', email: 'max@example.com', message: 'Call me back' });
    await clock.runUntil(() => replies() >= 13);

    const sent = sentOf(events);
    expect(sent.map((s) => s.event)).toEqual([
      'chat_accepted',
      'chat_updated',
      'chat_updated',
      'chat_assigned',
      'chat_finished',
      'call_event',
      'call_event',
      'call_event',
      'call_event',
      'call_event',
      'call_event',
      'call_event',
      'offline_message',
    ]);
    for (const s of sent) {
      const result = validate(`hook.${s.event}`, s.payload);
      expect(result.errors, s.event).toEqual([]);
      expect(result.warnings, s.event).toEqual([]);
    }
    const bodies = sent.map((s) => s.payload as Record<string, any>);
    const [accepted, updated, tokened, assigned, finished] = bodies;
    // consistent within the chat: the same session, page, department and visitor number
    for (const body of [updated, tokened, assigned, finished]) {
      expect(body!.session).toEqual(accepted!.session);
      expect(body!.page).toEqual(accepted!.page);
      expect(body!.department).toEqual(accepted!.department);
      expect(body!.visitor.number).toBe(accepted!.visitor.number);
      expect(body!.chat_id).toBe(1);
    }
    expect(accepted!.user_token).toBeUndefined();
    expect(tokened!.user_token).toBe('tok-7f3a');
    expect(assigned!.user_token).toBe('tok-7f3a');
    expect(updated!.visitor.email).toBe('jane@example.org');
    expect(assigned!.assign_to).toBe(SAMPLE_CRM_LINK);
    expect(finished!.agents).toEqual([{ id: 1, name: 'Alice Agent', email: 'alice@example.com' }]);
    expect(finished!.chat.rate).toBe('positive');
    expect(finished!.chat.blacklisted).toBe(false);
    expect(finished!.chat.messages.map((m: any) => [m.type, m.agent_id])).toEqual([
      ['visitor', undefined],
      ['agent', 1],
      ['visitor', undefined], // contact_info, as if typed by the visitor (spec 6.2)
      ['visitor', undefined],
    ]);
    const calls = bodies.filter((b) => b.event_name === 'call_event').map((b) => b.call);
    expect(calls.map((c: any) => c.status)).toEqual([
      'start',
      'agent_connected',
      'client_connected',
      'end',
      'start',
      'agent_connected',
      'error',
    ]);
    expect(calls[3].record_url).toMatch(/^https:\/\/.+\.mp3$/);
    expect(calls[6].reason).toBe('busy');
    const offline = bodies.at(-1)!;
    expect(offline).not.toHaveProperty('chat_id');
    expect(offline).not.toHaveProperty('agent');
    expect(offline).not.toHaveProperty('department');

    // the receiver saw the same events, each valid, and every reply conformed
    const got = receivedOf(received);
    expect(got).toHaveLength(13);
    expect(got.every((e) => e.verdict.ok)).toBe(true);
    expect(repliesOf(events).every((r) => r.verdict === 'ok')).toBe(true);
    // hook attempts are delivery events with target hook
    const attempts = events.filter((e) => e.type === 'delivery-attempt' && e.target === 'hook');
    expect(attempts).toHaveLength(13);
  });

  it('does not show CRM data when chat_accepted is answered with a result other than ok', async () => {
    const { target } = await startTarget({ replies: { chat_accepted: { result: 'FAILURE' } } });
    const { platform, clock, events, channelUrl } = await startHookPlatform({ url: target.url });
    await post(channelUrl, customer('hello'));
    await sendAgentMessage(platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await clock.runUntil(() => events.some((e) => e.type === 'crm-data'));
    expect(events.find((e) => e.type === 'crm-data')).toMatchObject({
      shown: false,
      reason: 'result is "FAILURE", not "ok" (spec 6.2)',
    });
    expect(() => assignChat(platform.core, { chatId: 1 })).toThrow(
      expect.objectContaining({ code: 'SVC_E_NO_CRM_LINK' }),
    );
  });

  it('reports a reply that breaks the contract as a violation with exact paths', async () => {
    const bad = { result: 'ok', custom_data: [{ title: 7 }], contact_info: { phone: '1' } };
    const { target } = await startTarget({ replies: { chat_accepted: bad } });
    const { platform, clock, events, channelUrl } = await startHookPlatform({ url: target.url });
    await post(channelUrl, customer('hello'));
    await sendAgentMessage(platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await clock.runUntil(() => events.some((e) => e.type === 'crm-data'));
    const violation = events.find((e) => e.type === 'violation');
    expect(violation).toMatchObject({ source: 'hook reply', kind: 'hook.chat_accepted.reply' });
    expect(
      violation?.type === 'violation' ? violation.issues.map((i) => i.path).sort() : [],
    ).toEqual(['contact_info.name', 'custom_data[0].title']);
    expect(events.find((e) => e.type === 'crm-data')).toMatchObject({ shown: false });
  });

  it('takes an empty 200 to call_event (its reply is not shown), not to chat_accepted', async () => {
    // a PHP receiver whose library answers only the events it has handlers for: nothing else
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      const { platform, clock, events, channelUrl } = await startHookPlatform({ url });
      await post(channelUrl, customer('hello'));
      await sendAgentMessage(platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
      startCall(platform.core, { phone: '+49 30 1', outcome: { kind: 'error', reason: 'busy' } });
      await clock.runUntil(() => repliesOf(events).length >= 4);
      expect(repliesOf(events).map((r) => [r.event, r.verdict])).toEqual([
        ['chat_accepted', 'no-reply'],
        ['call_event', 'ok'],
        ['call_event', 'ok'],
        ['call_event', 'ok'],
      ]);
      const failed = events.find(
        (e) => e.type === 'delivery-attempt' && e.target === 'hook' && e.outcome !== 'accepted',
      );
      expect(failed).toMatchObject({ reason: 'reply is empty, not JSON' });
      expect(events.filter((e) => e.type === 'violation')).toEqual([]);
    } finally {
      await closeAll();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('makes one attempt (no redelivery) and reports a receiver that is down', async () => {
    const url = await deadUrl();
    const { platform, clock, events, channelUrl } = await startHookPlatform({ url });
    await post(channelUrl, customer('hello'));
    await sendAgentMessage(platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await clock.runUntil(() => repliesOf(events).length > 0);
    const attempts = events.filter((e) => e.type === 'delivery-attempt' && e.target === 'hook');
    expect(attempts).toMatchObject([{ attempt: 1, attempts: 1, outcome: 'rejected' }]);
    expect(repliesOf(events)).toMatchObject([{ verdict: 'no-reply', event: 'chat_accepted' }]);
  });

  it('times out after --hook-timeout on the clock and redelivers with --hook-attempts', async () => {
    const { target } = await startTarget({ plan: { fault: { kind: 'hang' } } });
    const { platform, clock, events, channelUrl } = await startHookPlatform({
      url: target.url,
      timeoutMs: 2000,
      attempts: 2,
    });
    await post(channelUrl, customer('hello'));
    await sendAgentMessage(platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await clock.runUntil(() => repliesOf(events).length > 0);
    const attempts = events.filter((e) => e.type === 'delivery-attempt' && e.target === 'hook');
    expect(attempts).toMatchObject([
      { attempt: 1, attempts: 2, offsetMs: 0, reason: 'timeout after 2000 ms' },
      { attempt: 2, attempts: 2, offsetMs: 3000, reason: 'timeout after 2000 ms' },
    ]);
  });
});

describe('platform --chat-idle-timeout with hooks', () => {
  it('closing an idle chat sends chat_finished with the chat log', async () => {
    const { target, events: received } = await startTarget();
    const { clock, events, channelUrl } = await startHookPlatform(
      { url: target.url },
      { chats: { idleTimeoutMs: 30 * 60_000 } },
    );
    expect(await post(channelUrl, customer('anyone there?'))).toMatchObject({ status: 200 });
    await clock.runUntil(() => repliesOf(events).length >= 1);
    expect(events.find((e) => e.type === 'chat-closed')).toMatchObject({
      chatId: 1,
      reason: 'idle',
      protocolMs: 30 * 60_000,
    });
    expect(receivedOf(received).map((e) => [e.eventName, e.verdict.ok])).toEqual([
      ['chat_finished', true],
    ]);
    const finished = sentOf(events).find((e) => e.event === 'chat_finished');
    expect(finished?.payload).toMatchObject({
      chat_id: 1,
      chat: { messages: [{ type: 'visitor', text: 'anyone there?' }] },
    });
  });
});
