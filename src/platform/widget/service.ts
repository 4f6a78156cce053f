import { packageFiles } from '../../package-files.js';
import { ProtocolError } from '../../protocol-error.js';
import { PUSH_KIND_PREFIX, recordExchange } from '../../journal/index.js';
import type { WidgetInboundEvent, WidgetOutboundEvent } from '../../contract/widget-protocol.js';
import type { PlatformCore } from '../core.js';
import type { PlatformEvent } from '../events.js';
import type { ReadonlyPlatformState } from '../lifecycle-hooks.js';
import { mediaLabel, mediaOf, type Channel, type Chat } from '../model.js';
import type { DirectDeliveryService, PlatformRequest, PlatformResponse } from '../types.js';
import { applyOutbound } from './apply.js';
import { BACKLOG_LIMIT, createVisitorHub, type VisitorHub } from './hub.js';
import { parseOutboundEvent } from './schema.js';

/** What an agent's message to a widget visitor answers when none of their pages listens. */
const QUEUED_NOTE = `queued: no page of the visitor is open; the page gets it when it opens (the visitor's last ${BACKLOG_LIMIT} pushes are kept)`;

/** The page may be served from another origin (svc-cli widget, a developer's own page). */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, last-event-id',
};

const reply = (status: number, body: unknown, kind?: string, chat?: number): PlatformResponse => ({
  status,
  body,
  headers: CORS,
  record: { iface: 'widget', ...(kind ? { kind } : {}), ...(chat === undefined ? {} : { chat }) },
});

/** A callback that threw: its journal record (a recording, the console's journal) says so. */
function withThrownVerdict(
  answered: PlatformResponse,
  event: WidgetOutboundEvent,
): PlatformResponse {
  if (event.type !== 'callback' || event.threw === undefined || !answered.record) return answered;
  answered.record.verdict = {
    ok: false,
    errors: [`${event.name} threw: ${event.threw} (the page's callback, spec 6.4)`],
    warnings: [],
  };
  return answered;
}

/**
 * A refusal of the widget channel (spec 4.5, 7), answered by the core: with the CORS headers
 * (the page reads every answer cross-origin) and recorded as the widget's. A posted event is
 * refused in the transport's own shape, `{ok: false, error}`.
 */
export function widgetRefusal(
  code: 'not_found' | 'invalid_request',
  message: string,
  shape: 'error-body' | 'transport' = 'error-body',
): ProtocolError {
  return new ProtocolError(code, message, {
    headers: CORS,
    record: { iface: 'widget' },
    ...(shape === 'transport' ? { body: { ok: false, error: message } } : {}),
  });
}

/**
 * The widget channel (interface C, platform side) under /_sim/widget/:
 * - `POST /_sim/widget/events[?channel=<id>]` one outbound event of the page script
 *   (src/widget/transport.ts); answers the transport reply `{ok, visitorNumber?}` or `{ok:false, error}`
 * - `GET /_sim/widget/events?visitor=<id>` server-sent events: the inbound events for that
 *   visitor (agent_accepted, agent_message, chat_mode, call_status), with ids for Last-Event-ID
 * - `GET /_sim/widget/visitors` the visitors and their pages
 * - `GET /_sim/widget/svc-widget.js` the page-script double for a `<script>` tag
 * Agent messages to widget customers come here instead of the integrator URL.
 */
export function createWidgetService(core: PlatformCore): DirectDeliveryService {
  const hub = createVisitorHub(core);

  /** The widget channel: the one named, else the first, else one created on first use. */
  const channelFor = (id: string | null): Channel | undefined => {
    if (id) {
      const named = core.state.channels.get(id);
      return named?.kind === 'widget' ? named : undefined;
    }
    for (const channel of core.state.channels.values())
      if (channel.kind === 'widget') return channel;
    const taken = core.state.channels.has('widget');
    return core.addChannel({
      kind: 'widget',
      name: 'Site widget',
      ...(taken ? {} : { id: 'widget' }),
    });
  };

  const off = core.on((event, view) => tellVisitors(view.state, hub, event), 'the widget pages');

  const stream = (request: PlatformRequest): PlatformResponse => {
    const visitorId = request.query.get('visitor') ?? '';
    const channel = channelFor(request.query.get('channel'));
    if (!channel) throw widgetRefusal('not_found', 'no widget channel has that id');
    if (visitorId === '' || visitorId.length > 200)
      throw widgetRefusal('invalid_request', 'give ?visitor=<visitor id>');
    const visitor = hub.ensure(visitorId, channel);
    const last = Number(request.headers['last-event-id']);
    return {
      status: 200,
      headers: { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      stream(write, onClose) {
        const url = `${core.baseUrl}${request.path}?${request.query.toString()}`;
        const send = (event: WidgetInboundEvent, id?: number, chatId?: number): void => {
          const data = JSON.stringify(event);
          write(`${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`);
          journalPush(core, { url, event: event.type, data, id, chatId });
        };
        write('retry: 1000\n\n');
        send({ type: 'chat_mode', online: core.state.agentsOnline }); // chatMode() follows the agents
        // a page resuming a stream id this simulator never gave out was listening to an
        // earlier run (the simulator restarted under it): the chat it shows is gone here, so
        // it is told so, as of a closed chat, and its next message is a new chat's first
        // (spec 6.4 svc_onMessageSent); it then gets what this run kept for the visitor
        const stale = Number.isInteger(last) && last >= visitor.nextId;
        if (stale) send({ type: 'chat_closed' });
        const resumed = Number.isInteger(last) && !stale ? last : undefined;
        // a page loaded while the visitor's chat is open (a reload, a second tab): the chat so
        // far, as the real widget shows its history; the agent messages in it are not pushed
        // again from the backlog
        const open = resumed === undefined ? hub.openChatOf(visitor) : undefined;
        const transcript = transcriptOf(open);
        if (transcript.length > 0)
          send({ type: 'transcript', messages: transcript }, undefined, open?.id);
        onClose(hub.connect(visitor, send, resumed, coveredBy(transcript)));
      },
    };
  };

  const receive = (request: PlatformRequest): PlatformResponse => {
    const channel = channelFor(request.query.get('channel'));
    if (!channel) throw widgetRefusal('not_found', 'no widget channel has that id', 'transport');
    const body = request.body;
    if (!body?.ok) {
      const message = body?.message ?? 'a JSON body is required';
      throw widgetRefusal('invalid_request', message, 'transport');
    }
    const parsed = parseOutboundEvent(body.json);
    if (!parsed.ok) throw widgetRefusal('invalid_request', parsed.error, 'transport');
    const visitor = hub.ensure(parsed.event.visitorId, channel);
    const answer = applyOutbound(core, hub, visitor, parsed.event);
    // a callback's record belongs to the chat of the push it reflects (the trace's
    // callback-order invariant, spec 6.4); what the visitor did, as a callback without one, to
    // the visitor's open chat (the one a message just opened), so the trace shows the page's
    // side of the conversation
    const chat =
      (parsed.event.type === 'callback'
        ? hub.chatOfPush(visitor, parsed.event.eventId)
        : undefined) ?? hub.openChatOf(visitor)?.id;
    return withThrownVerdict(reply(200, answer, `widget.${parsed.event.type}`, chat), parsed.event);
  };

  return {
    name: 'widget',
    routes: [
      {
        method: 'OPTIONS',
        path: '/_sim/widget/events',
        handler: () => ({ status: 204, headers: CORS, record: { iface: 'widget' } }),
      },
      { method: 'GET', path: '/_sim/widget/events', handler: (request) => stream(request) },
      { method: 'POST', path: '/_sim/widget/events', handler: (request) => receive(request) },
      {
        // the page-script double for a page served anywhere (a PHP or Python site, the single
        // binary's users: no node_modules): loaded from here it finds the simulator by itself
        method: ['GET', 'HEAD'],
        path: `/_sim/widget/${WIDGET_SCRIPT}`,
        handler: () => widgetScript(),
      },
      {
        method: 'GET',
        path: '/_sim/widget/visitors',
        handler: () => reply(200, { visitors: visitorList(hub) }),
      },
      {
        // the page reads every answer cross-origin: a 404 carries the CORS headers too
        method: '*',
        path: '/_sim/widget/*',
        handler: (request) => {
          throw widgetRefusal('not_found', `no widget endpoint ${request.method} ${request.path}`);
        },
      },
    ],
    deliverToCustomer(input) {
      const visitor = hub.byCustomerKey(input.customerKey);
      if (!visitor) return { result: 'failed', agentNotice: 'the visitor is not on a widget page' };
      const { message } = input;
      if (message.type === 'typein' || message.type === 'typeout') return { result: 'delivered' };
      // spec 2.4: a media message as a line the page can show (`[location] 52.5, 13.4`), its
      // fields beside it (the file's link to open, the coordinates)
      const media = typeof message.text === 'string' ? undefined : mediaOf(message);
      const text =
        typeof message.text === 'string' ? message.text : mediaLabel(message.type, media);
      hub.push(
        visitor,
        {
          type: 'agent_message',
          text,
          agentName: input.senderName,
          ...(media ? { media: { type: message.type, ...media } } : {}),
        },
        { chatId: input.chatId, deliveryId: input.messageId },
      );
      // no page listening: the message waits for the visitor's next page (the backlog); the
      // caller is told, so "delivered" does not read as "the visitor saw it"
      if (visitor.pages.size === 0) return { result: 'delivered', note: QUEUED_NOTE };
      return { result: 'delivered' };
    },
    close: off,
  };
}

/** `GET /_sim/widget/visitors`: each visitor with their pages, customer and open chat. */
function visitorList(hub: VisitorHub): unknown[] {
  return [...hub.visitors.values()].map((v) => ({
    ...v.profile,
    channelId: v.channelId,
    customer: hub.customerOf(v),
    chatId: hub.openChatOf(v)?.id,
  }));
}

/** The browser bundle of the page-script double (scripts/build-widget.js). */
const WIDGET_SCRIPT = 'svc-widget.js';

/** `GET /_sim/widget/svc-widget.js`: the built bundle, or a 404 saying how to build it. */
function widgetScript(): PlatformResponse {
  const body = packageFiles().read(`dist/widget/${WIDGET_SCRIPT}`);
  if (body === undefined)
    throw widgetRefusal(
      'not_found',
      `${WIDGET_SCRIPT} is not built in this copy of svc-cli: run \`npm run build\``,
    );
  return {
    status: 200,
    body,
    headers: {
      ...CORS,
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
    },
    record: { iface: 'widget' },
  };
}

/**
 * Journals one server-sent event written to a page (interface C, spec 4.5, 6.4): the
 * `widget.push.<type>` record the trace draws on the widget lane, links to its cause and to
 * the callback the page reports with its stream id. Direction `out` (the platform sent it),
 * the stream's GET as the request with the event's data as its body; no reply. Per page and
 * per write: a page that reconnects gets (and the journal shows) the events it missed again.
 */
function journalPush(
  core: PlatformCore,
  push: {
    url: string;
    event: string;
    data: string;
    id?: number | undefined;
    chatId?: number | undefined;
  },
): void {
  recordExchange(core.journal, {
    protocolMs: core.clock.now(),
    iface: 'widget',
    direction: 'out',
    kind: `${PUSH_KIND_PREFIX}${push.event}`,
    chat: push.chatId,
    request: { method: 'GET', url: push.url, body: push.data },
    notes: push.id === undefined ? ['sse push'] : ['sse push', `id: ${push.id}`],
  });
}

/**
 * What the open pages hear of the platform's events: agents online, Reply pressed, the chat
 * closed, calls. An
 * observer (server-sent events to the pages): it reads the state, never changes a chat.
 */
function tellVisitors(state: ReadonlyPlatformState, hub: VisitorHub, event: PlatformEvent): void {
  if (event.type === 'agents') {
    hub.broadcast({ type: 'chat_mode', online: event.online });
  } else if (event.type === 'chat-accepted') {
    const chat = state.chats.get(event.chatId);
    const visitor = chat && hub.byCustomerKey(chat.customerKey);
    const agent = state.agents.find((a) => a.id === event.agentId);
    // spec 6.4 svc_onAccept: the agent pressed Reply
    if (visitor) {
      hub.push(
        visitor,
        { type: 'agent_accepted', ...(agent ? { agentName: agent.name } : {}) },
        { chatId: event.chatId },
      );
    }
  } else if (event.type === 'chat-closed') {
    // the page shows the chat ended; the visitor's next message opens a new chat (spec 6.4:
    // its first message fires svc_onMessageSent again)
    const chat = state.chats.get(event.chatId);
    const visitor = chat && hub.byCustomerKey(chat.customerKey);
    if (visitor) hub.push(visitor, { type: 'chat_closed' }, { chatId: event.chatId });
  } else if (event.type === 'call-status') {
    for (const visitor of hub.visitors.values()) {
      if (!visitor.callIds.has(event.callId)) continue;
      hub.push(
        visitor,
        {
          type: 'call_status',
          status: event.status,
          ...(event.reason === undefined ? {} : { reason: event.reason }),
        },
        event.chatId === undefined ? {} : { chatId: event.chatId },
      );
      if (event.status === 'end' || event.status === 'error') visitor.callIds.delete(event.callId);
    }
  }
}

/**
 * Which backlog pushes a page's transcript already shows: each agent line of the transcript
 * covers one push of the same text (a media line reads as its push does); any other push is
 * sent as before.
 */
function coveredBy(
  transcript: ReadonlyArray<TranscriptLine>,
): (event: WidgetInboundEvent) => boolean {
  const shown = new Map<string, number>();
  for (const m of transcript)
    if (m.from === 'agent') shown.set(m.text, (shown.get(m.text) ?? 0) + 1);
  return (event) => {
    if (event.type !== 'agent_message') return false;
    const left = shown.get(event.text) ?? 0;
    if (left === 0) return false;
    shown.set(event.text, left - 1);
    return true;
  };
}

type TranscriptLine = Extract<WidgetInboundEvent, { type: 'transcript' }>['messages'][number];

/** A chat's lines as the widget shows them: the visitor's and the agents' (and bot's) texts. */
function transcriptOf(chat: Chat | undefined): TranscriptLine[] {
  if (!chat) return [];
  const messages: TranscriptLine[] = [];
  for (const line of chat.lines) {
    // a CRM's contact_info is shown to the agent as if typed (spec 6.2), never to the visitor
    if (line.kind === 'hook.contact_info' || line.kind.endsWith('.typing')) continue;
    const from = line.type === 'visitor' ? 'visitor' : 'agent';
    if (line.text !== undefined) {
      messages.push({ from, text: line.text });
      continue;
    }
    // a media line as the page shows a media push (`[photo] a.png`), its fields beside it
    const type = line.kind.split('.').pop() ?? line.kind;
    const text = mediaLabel(type, line.media);
    messages.push({ from, text, ...(line.media ? { media: { type, ...line.media } } : {}) });
  }
  return messages;
}
