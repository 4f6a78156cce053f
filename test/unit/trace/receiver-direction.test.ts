/**
 * A recording written by the party facing the platform (`hook-target`, `bot-sim`, `listen`
 * with `--record`) holds what it received as `in`: trace draws each exchange as the platform
 * saw it, so a hook the receiver took points at the hooks lane, as the platform's own record of
 * it does. Before, a hook-target recording drew every hook from the receiver to the platform.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { spanOf } from '../../../src/trace/span.js';

const span = (iface: ExchangeRecord['iface'], direction: 'in' | 'out', kind: string) =>
  spanOf({
    type: 'exchange',
    seq: 1,
    run: 'r',
    at: '2026-01-01T00:00:00.000Z',
    protocolMs: 0,
    iface,
    direction,
    kind,
    request: { method: 'POST', url: 'http://127.0.0.1:9200/hooks', body: '{}' },
    response: { status: 200, body: '{}' },
  }).direction;

describe('the direction of a record written by the receiving side', () => {
  it('is the one the platform would have recorded', () => {
    expect(span('hook', 'in', 'hook.chat_accepted')).toBe('out');
    expect(span('bot', 'in', 'bot.event.CLIENT_MESSAGE')).toBe('out');
    expect(span('bot', 'in', 'bot.event.AGENT_JOINED')).toBe('out');
    expect(span('bot', 'out', 'bot.event.BOT_MESSAGE')).toBe('in');
    expect(span('channel', 'in', 'channel.agent.text')).toBe('out');
    // the platform's own records stay as they are
    expect(span('hook', 'out', 'hook.chat_finished')).toBe('out');
    expect(span('bot', 'in', 'bot.event.INVITE_AGENT')).toBe('in');
    expect(span('channel', 'in', 'channel.customer.text')).toBe('in');
  });
});
