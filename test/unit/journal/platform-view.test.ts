import { describe, expect, it } from 'vitest';
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
} from '../../../src/contract/timing.js';
import {
  PLATFORM_WAIT_MS,
  platformFailureReason,
  platformResponse,
  platformTimedOut,
} from '../../../src/journal/platform-view.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

type Seen = Pick<
  ExchangeRecord,
  'iface' | 'direction' | 'kind' | 'failure' | 'durationMs' | 'response'
>;
const ok = { status: 200, body: '{"result":"ok"}' };
/** listen's record of an agent message it answered 200 after `durationMs` */
const listenSaw = (durationMs: number): Seen => ({
  iface: 'channel',
  direction: 'in',
  kind: 'channel.agent.text',
  durationMs,
  response: ok,
});

describe('a peer record read as the platform saw it', () => {
  it("waits as long as the contract's delivery policies (spec 8)", () => {
    expect(PLATFORM_WAIT_MS).toEqual({
      channel: CHANNEL_DELIVERY_POLICY.attemptTimeoutMs,
      bot: BOT_DELIVERY_POLICY.attemptTimeoutMs,
      hook: HOOK_DELIVERY_POLICY.attemptTimeoutMs,
    });
  });

  it('a reply as long as the 3 s wait (spec 8) is a timeout, a quicker one the answer', () => {
    expect(platformFailureReason(listenSaw(3000))).toBe('timeout');
    expect(platformResponse(listenSaw(3000))).toBeUndefined();
    // the peer's clock starts after the platform's and stops when it saw the connection go
    expect(platformTimedOut(listenSaw(2991))).toBe(true);
    expect(platformTimedOut(listenSaw(2500))).toBe(false);
    expect(platformResponse(listenSaw(2500))).toEqual(ok);
  });

  it("a hook's wait is the simulator's 10 s (spec 6.2, 8 give none)", () => {
    const hook = (durationMs: number): Seen => ({
      iface: 'hook',
      direction: 'in',
      kind: 'hook.chat_accepted',
      durationMs,
      response: ok,
    });
    expect(platformTimedOut(hook(4000))).toBe(false);
    expect(platformTimedOut(hook(10_000))).toBe(true);
  });

  it("neither the platform's own records nor the answers it gave a peer", () => {
    // the platform's record: its own timeout is already there, a slow 200 it got is a 200
    expect(platformTimedOut({ ...listenSaw(3500), direction: 'out' })).toBe(false);
    // bot-sim's post the platform answered slowly: the platform's wait does not bound it
    const botPost: Seen = {
      iface: 'bot',
      direction: 'out',
      kind: 'bot.event.BOT_MESSAGE',
      durationMs: 4000,
      response: ok,
    };
    expect(platformTimedOut(botPost)).toBe(false);
    expect(platformResponse(botPost)).toEqual(ok);
  });
});
