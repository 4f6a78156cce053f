import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { watchInvariants } from '../../../src/trace/watch.js';

let seq = 0;
/** A hook the platform sent about `chat` (its body names the chat, as on a proxy). */
const hook = (event: string, chat: number, at = 0): ExchangeRecord => ({
  type: 'exchange',
  seq: ++seq,
  run: 'r',
  at: '2026-01-01T00:00:00.000Z',
  protocolMs: at,
  iface: 'hook',
  direction: 'out',
  kind: `hook.${event}`,
  request: {
    method: 'POST',
    url: 'http://x.test/hooks',
    body: JSON.stringify({ event_name: event, chat_id: chat }),
  },
  response: { status: 200 },
});

describe('watchInvariants', () => {
  it('flags a late hook as it comes, once, and not again at the end', () => {
    const watch = watchInvariants();
    expect(watch.add(hook('chat_accepted', 1))).toEqual([]);
    expect(watch.add(hook('chat_finished', 1))).toEqual([]);
    const [late] = watch.add(hook('chat_updated', 1, 5));
    expect(late).toMatchObject({ rule: 'hook-after-finish', chat: 1 });
    expect(watch.add(hook('call_event', 1, 6))).toEqual([]); // about a call: allowed
    expect(watch.finish()).toEqual([]);
  });

  it('keeps chats apart, and skips a rule switched off', () => {
    const watch = watchInvariants({ disabled: ['hook-after-finish'] });
    watch.add(hook('chat_finished', 1));
    expect(watch.add(hook('chat_updated', 1, 1))).toEqual([]);
    const other = watchInvariants();
    other.add(hook('chat_finished', 1));
    expect(other.add(hook('chat_updated', 2, 1))).toEqual([]); // another chat
  });

  it('puts a settled chat away (bounded memory): a hook after that starts a new conversation', () => {
    const watch = watchInvariants({ limits: { settleRecords: 2 } });
    watch.add(hook('chat_finished', 1));
    // 256 records of other chats: the sweep puts chat 1 away
    for (let i = 0; i < 256; i++) watch.add(hook('chat_accepted', 100 + i));
    expect(watch.add(hook('chat_updated', 1, 9))).toEqual([]);
  });
});
