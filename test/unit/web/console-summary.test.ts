/**
 * The Events tab's one-line summary of each simulator event (src/web/console/chat-view.ts):
 * a widget visitor's events say which visitor and what happened, as the terminal does.
 */
import { describe, expect, it } from 'vitest';
import { summarizeEvent } from '../../../src/web/console/chat-view.js';

describe('summarizeEvent', () => {
  it("says a widget visitor's page connecting and leaving, with the visitor number", () => {
    expect(
      summarizeEvent({ visitorId: 'visitor-1', visitorNumber: 2, connected: true }),
    ).toMatchInlineSnapshot(`"page connected · visitor #2"`);
    expect(
      summarizeEvent({ visitorId: 'visitor-1', visitorNumber: 2, connected: false }),
    ).toMatchInlineSnapshot(`"page left · visitor #2"`);
  });

  it('says what a widget update changed (spec 4.5 setCustomData ...)', () => {
    expect(
      summarizeEvent({
        visitorId: 'visitor-1',
        visitorNumber: 2,
        chatId: 3,
        what: 'custom_data',
        data: [{ title: 'Order' }],
      }),
    ).toMatchInlineSnapshot(`"chat 3 · visitor #2 · custom_data"`);
  });

  it("says an agent's typing notice is typing, not an empty message", () => {
    const typing = {
      chatId: 3,
      customerId: 'c-7',
      deliveryId: 'd-1',
      kind: 'channel.agent.typing',
      agent: 'Agent Smith',
    };
    expect(summarizeEvent({ ...typing, typing: true })).toBe('chat 3 · c-7 · typing');
    expect(summarizeEvent({ ...typing, typing: false })).toBe('chat 3 · c-7 · stopped typing');
  });

  it('keeps the summary of a channel event as it was', () => {
    expect(summarizeEvent({ chatId: 1, customerId: 'c-1', text: 'hi' })).toMatchInlineSnapshot(
      `"chat 1 · c-1 · "hi""`,
    );
  });
});
