/**
 * The seam between the page-script double and a platform. Every event is plain
 * JSON-serialisable data, so an HTTP transport can POST outbound events to the simulator's
 * control API (`/_sim/widget/...`) and stream inbound ones back (SSE or polling).
 *
 * Outbound (page -> platform), each with the sending visitor's `visitorId`:
 * - `visitor_number`   getVisitorNumber(); the reply carries `visitorNumber` (spec 4.5: 1, 2, 3 ...)
 * - `visitor_message`  the visitor typed in the chat; `first` marks the first message (spec 6.4);
 *                      `page` {url, title?} the page it writes from (hooks' page, spec 6.2), as
 *                      with `offline_message` and `start_call`
 * - `contact_info`     setContactInfo() (`source: 'api'`) or the contacts form (`source: 'form'`)
 * - `custom_data`      setCustomData() fields after sanitising, in array order
 * - `user_token`       setUserToken(); the platform echoes it in hook events (spec 5.5, 6.2)
 * - `rules`            setRules(); replaces the invitation rules
 * - `invitation`       showProactiveInvitation()
 * - `offline_message`  sendOfflineMessage(); becomes hook offline_message (spec 6.2)
 * - `start_call`       startCall(); becomes hook call_event (spec 6.2)
 * - `callback`         a callback ran for a pushed event (`eventId`, its id on the stream):
 *                      journaled, so the trace checks the callbacks' order (spec 6.4)
 *
 * Inbound (platform -> page), optionally addressed with `visitorId` (absent: every visitor):
 * - `agent_accepted`   an agent pressed Reply (spec 3, 6.4 svc_onAccept)
 * - `agent_message`    an agent wrote `text`; a media message (spec 2.4) as `[photo] a.png` or
 *                      `[location] 52.5, 13.4`, its fields in `media`
 * - `chat_mode`        agents went online or offline (chatMode())
 * - `callback_setting` the admin panel's callback setting changed
 * - `call_status`      spec 2.6 call status; `end` and `error` end the call (svc_onCallEnd)
 * - `chat_closed`      the visitor's chat was closed; the next message starts a new chat, and
 *                      svc_onMessageSent fires for its first message again (spec 6.4)
 */

export type {
  CallStatus,
  WidgetInboundEvent,
  WidgetOutboundEvent,
  WidgetTransport,
  WidgetTransportReply,
} from './types.js';
import type { WidgetInboundEvent, WidgetOutboundEvent, WidgetTransport } from './types.js';

/** A fresh visitor id: random, hard to guess. */
export function createVisitorId(): string {
  const uuid = globalThis.crypto?.randomUUID?.();
  return `visitor-${uuid ?? Math.random().toString(36).slice(2)}`;
}

export interface MemoryTransport extends WidgetTransport {
  /** Every outbound event, in order. */
  readonly sent: WidgetOutboundEvent[];
  /** Plays the platform: hands an inbound event to every subscriber. */
  push(event: WidgetInboundEvent): void;
}

export interface MemoryTransportOptions {
  /** The first visitor number handed out (default 1). */
  firstVisitorNumber?: number;
}

/**
 * The offline platform: records what the page sends and numbers visitors in order of
 * their first request. Share one between two widgets to see visitors 1 and 2.
 * @example const transport = createMemoryTransport(); installWidget(window, { transport });
 */
export function createMemoryTransport(options: MemoryTransportOptions = {}): MemoryTransport {
  const sent: WidgetOutboundEvent[] = [];
  const listeners = new Set<(event: WidgetInboundEvent) => void>();
  const numbers = new Map<string, number>();
  let next = options.firstVisitorNumber ?? 1;
  return {
    sent,
    send(event) {
      sent.push(event);
      if (event.type !== 'visitor_number') return Promise.resolve({ ok: true });
      // spec 4.5: sequential; one number per visitor, kept on repeated requests
      let visitorNumber = numbers.get(event.visitorId);
      if (visitorNumber === undefined) {
        visitorNumber = next++;
        numbers.set(event.visitorId, visitorNumber);
      }
      return Promise.resolve({ ok: true, visitorNumber });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    push(event) {
      for (const listener of [...listeners]) listener(event);
    },
  };
}
