/**
 * A widget chat the agent closes (interface C, spec 6.4): the platform tells the visitor's
 * page, which shows so; the visitor's next message opens a new chat on the platform and is
 * that chat's first, so svc_onMessageSent fires for it again. Before, the page never learned
 * of the close, and no later chat of the same page fired svc_onMessageSent.
 */
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import type { HttpTransport, WidgetInboundEvent } from '../../src/widget/index.js';
import { post, startPlatform } from '../helpers/platform.js';
import { widgetPages } from '../helpers/widget-page.js';

const openPage = widgetPages();

/** Resolves with the first inbound event of `type` the page's transport hands over. */
function nextPush(transport: HttpTransport, type: WidgetInboundEvent['type']): Promise<void> {
  return new Promise((resolve) => {
    const off = transport.subscribe((event) => {
      if (event.type !== type) return;
      off();
      resolve();
    });
  });
}

describe('a widget chat closed by the agent (spec 6.4)', () => {
  it('is pushed to the page; the next message starts a new chat and fires svc_onMessageSent', async () => {
    const harness = await startPlatform({ clock: createClock({ timeScale: 0.001 }) });
    const sent: number[] = [];
    const { transport, widget } = await openPage(harness.url, {
      svc_onMessageSent: () => sent.push(sent.length + 1),
    });
    widget.visitor.send('Is my order on its way?');
    await widget.flush();
    expect(harness.platform.core.state.chats.get(1)?.mode).not.toBe('closed');

    const closedSeen = nextPush(transport, 'chat_closed');
    expect((await post(`${harness.url}/_sim/chats/1/close`, {})).status).toBe(200);
    await closedSeen;
    expect(widget.messages.at(-1)).toMatchObject({ from: 'notice' });

    widget.visitor.send('One more question');
    await widget.flush();
    expect(sent).toEqual([1, 2]);
    // the platform took it as a new chat of the same customer
    const chats = [...harness.platform.core.state.chats.values()];
    expect(chats.map((c) => [c.id, c.mode === 'closed'])).toEqual([
      [1, true],
      [2, false],
    ]);
    // the push is journaled in the chat it closed
    const push = harness.platform.core.journal
      .entries()
      .find((r) => r.kind === 'widget.push.chat_closed');
    expect(push?.chat).toBe(1);
  });

  it('tells a page resuming a stream of an earlier run that its chat is gone', async () => {
    // a browser's EventSource reconnects with the last id it had; a restarted simulator never
    // gave that id out, so the page's chat is not here: before, the page kept it as open and
    // the first message it sent to the new run fired no svc_onMessageSent
    const harness = await startPlatform({ clock: createClock({ timeScale: 0.001 }) });
    const firstEvents = async (until: string, lastEventId?: string): Promise<string[]> => {
      const controller = new AbortController();
      const response = await fetch(`${harness.url}/_sim/widget/events?visitor=v-9`, {
        headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes(`"${until}"`)) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
      }
      controller.abort();
      return [...text.matchAll(/"type":"(\w+)"/g)].map((m) => m[1]!);
    };
    expect(await firstEvents('chat_closed', '57')).toEqual(['chat_mode', 'chat_closed']);
    // a new page is not told (its stream opens with chat_mode, and the close would follow it)
    expect(await firstEvents('chat_mode')).toEqual(['chat_mode']);
  });
});
