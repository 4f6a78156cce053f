/**
 * The web console's store (src/web/console/store.ts): the Events tab and a chat's activity
 * list events in protocol-time order, though the stream tells a moment after what it caused.
 */
import { describe, expect, it } from 'vitest';
import { applyEvent, createStore, insertInTimeOrder } from '../../../src/web/console/store.js';
import type { SimEvent } from '../../../src/web/console/store.js';

describe('the console lists events in protocol-time order', () => {
  it('puts chat-accepted before the hook its acceptance sent, as the stream sends them', () => {
    const store = createStore();
    // the order GET /_sim/events sent them in, times as a run printed them
    applyEvent(store, { type: 'chat-opened', chatId: 1, protocolMs: 1966.56 });
    applyEvent(store, { type: 'hook-sent', chatId: 1, protocolMs: 11_602.69 });
    applyEvent(store, { type: 'chat-accepted', chatId: 1, protocolMs: 11_591.79 });
    applyEvent(store, { type: 'agent-message', chatId: 1, protocolMs: 11_604.5 });
    expect(store.log.map((e) => e.type)).toEqual([
      'chat-opened',
      'chat-accepted',
      'hook-sent',
      'agent-message',
    ]);
    expect(store.activity.get(1)?.map((e) => e.type)).toEqual([
      'chat-opened',
      'chat-accepted',
      'hook-sent',
    ]);
  });

  it('keeps arrival order among events of one time, and puts one without a time last', () => {
    const list: SimEvent[] = [];
    insertInTimeOrder(list, { type: 'a', protocolMs: 5 });
    insertInTimeOrder(list, { type: 'b', protocolMs: 5 });
    insertInTimeOrder(list, { type: 'notice' });
    insertInTimeOrder(list, { type: 'c', protocolMs: 4 });
    insertInTimeOrder(list, { type: 'd', protocolMs: 3 });
    // an event without a time is a fence: what came after it stays after it
    expect(list.map((e) => e.type)).toEqual(['a', 'b', 'notice', 'd', 'c']);
  });
});
