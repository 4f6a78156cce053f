import {
  ERROR_REPLY_NOTE,
  PUSH_KIND_PREFIX,
  pushIdOf,
  type ExchangeRecord,
} from '../journal/record.js';
import {
  exchangeTimes,
  platformDirection,
  platformFailureReason,
  platformResponse,
} from '../journal/platform-view.js';

/** The party on the other side of an exchange: a lane of the timeline. */
export type Lane = 'integrator' | 'platform' | 'bot' | 'hooks' | 'widget';

/** Lanes left to right: the customer's side, the simulator, then the parties it calls. */
export const LANES: readonly Lane[] = ['integrator', 'platform', 'bot', 'hooks', 'widget'];

const laneOf: Record<ExchangeRecord['iface'], Lane> = {
  channel: 'integrator',
  bot: 'bot',
  hook: 'hooks',
  widget: 'widget',
  control: 'platform',
};

/** One message of a `chat_finished` transcript (spec 2.6), as the invariants compare it. */
export interface TranscriptLine {
  type: string;
  text?: string;
}

/**
 * One exchange of a trace: the journal record reduced to what a timeline, the causal links
 * and the invariants read (a few fields of its body, never the body itself), so a long
 * recording is held as small objects.
 */
export interface TraceSpan {
  /** the journal (one run of a command) that wrote it */
  run: string;
  seq: number;
  /** the conversation: the chat id, recorded or inferred */
  chat?: number;
  lane: Lane;
  iface: ExchangeRecord['iface'];
  /** as the platform saw it: `in` it served the request, `out` it sent it */
  direction: ExchangeRecord['direction'];
  kind?: string;
  /** a short name: the kind without its interface (`customer.text`, `CLIENT_MESSAGE`) */
  name: string;
  attempt?: number;
  /** protocol ms when the request started and when it ended */
  startMs: number;
  endMs: number;
  /** wall clock (epoch ms) matching `startMs`, from the record's `at` */
  wallStartMs: number;
  status?: number;
  /** no reply: why (timeout, reset, interrupted, ...) */
  failure?: string;
  /** a delivery attempt the platform accepted (true) or asked again for (false) */
  accepted?: boolean;
  /**
   * the integrator's error object (`code: message`, spec 2.2): accepted, it ends the series,
   * and the agent is shown the error instead of the message delivered
   */
  errorReply?: string;
  /**
   * the record's verdict failed (a payload that broke the contract, a page's callback that
   * threw): its first error, as the journal shows it
   */
  invalid?: string;
  /** request path, for control requests (`/_sim/chats/1/close`) */
  path: string;
  /** message.id (channel, spec 2.2) or the bot event id (spec 4.3) */
  messageId?: string;
  /** message.text, when the request has one */
  text?: string;
  /** the bot event (`event`) or hook event (`event_name`) */
  event?: string;
  /** sender.id (customer message), recipient.id (agent message) or `client_id <id>` (bot event) */
  customer?: string;
  /** chat.messages of a chat_finished hook (spec 2.6) */
  transcript?: TranscriptLine[];
  /**
   * a page callback the widget reported (spec 6.4): its name, and the stream id and type of
   * the pushed event it reflects
   */
  callback?: { name: string; eventId: number; event: string };
  /**
   * an event the platform pushed to a widget page over server-sent events: its type and its
   * stream id (absent for the events sent without one: chat_mode, the transcript)
   */
  push?: { event: string; eventId?: number };
  /** the seq of the exchange that caused this one, in the same run */
  cause?: number;
  /** where the link came from: written by the recorder, or inferred by the trace */
  causeBy?: 'record' | 'inferred';
}

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

function parseBody(text: string | undefined): Json | undefined {
  if (text === undefined || text === '' || text[0] !== '{') return undefined;
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}

function transcriptOf(body: Json): TranscriptLine[] | undefined {
  const messages = asObject(body.chat)?.messages;
  if (!Array.isArray(messages)) return undefined;
  return messages.map((m) => {
    const line = asObject(m) ?? {};
    // spec 2.6 shows no name for the text; the public samples say `message`, older `text`
    const text = asString(line.text) ?? asString(line.message);
    return { type: asString(line.type) ?? '?', ...(text === undefined ? {} : { text }) };
  });
}

/** A pushed event: its type (the kind's tail) and stream id (the record's `id:` note). */
function pushOf(record: ExchangeRecord, body: Json | undefined): TraceSpan['push'] {
  const event = asString(body?.type) ?? (record.kind ?? '').slice(PUSH_KIND_PREFIX.length);
  const eventId = pushIdOf(record);
  return eventId === undefined ? { event } : { event, eventId };
}

/** `push agent_message id 7`; a call's status with it (`push call_status end id 6`). */
function pushName(push: NonNullable<TraceSpan['push']>, body: Json | undefined): string {
  const status = push.event === 'call_status' ? asString(body?.status) : undefined;
  return `push ${push.event}${status === undefined ? '' : ` ${status}`}${push.eventId === undefined ? '' : ` id ${push.eventId}`}`;
}

/**
 * The span of one journal record. Protocol times: a record the simulator served is stamped
 * when the request came in; a delivery attempt when its reply came (or it failed), so its
 * start is that minus its duration.
 */
export function spanOf(record: ExchangeRecord): TraceSpan {
  const { startMs, endMs } = exchangeTimes(record);
  const response = platformResponse(record);
  const failure = platformFailureReason(record);
  const wallAt = Date.parse(record.at);
  const body = parseBody(record.request.body);
  const message = asObject(body?.message);
  const eventName = asString(body?.event_name) ?? asString(body?.event);
  const kind = record.kind;
  const name =
    kind === undefined
      ? `${record.request.method} ${pathOf(record.request.url).split('?')[0] ?? ''}`
      : kind.startsWith('bot.event.')
        ? kind.slice('bot.event.'.length)
        : kind.slice(kind.indexOf('.') + 1);
  const notes = record.notes ?? [];
  const errorReply = notes
    .find((n) => n.startsWith(ERROR_REPLY_NOTE))
    ?.slice(ERROR_REPLY_NOTE.length);
  const accepted = notes.includes('accepted')
    ? true
    : notes.some((n) => n.startsWith('rejected'))
      ? false
      : undefined;
  const clientId = asString(body?.client_id);
  // the integrator's sender ids and the platform's client ids are two id spaces, both often
  // digits: a bot event's customer is keyed apart so client "7" is not sender "7"
  // the agent's control request names the customer it answers (`customerId`, a sender id)
  const customer =
    asString(asObject(body?.sender)?.id) ??
    asString(asObject(body?.recipient)?.id) ??
    (clientId === undefined ? undefined : `client_id ${clientId}`) ??
    (record.iface === 'control' ? asString(body?.customerId) : undefined);
  // a control request names its chat in the path (`/_sim/chats/1/close`) or the body (the
  // agent's message: `chatId`)
  const chatInBody =
    asString(body?.chat_id) ??
    (record.iface === 'control'
      ? (/^\/_sim\/chats\/(\d+)(?:[/?]|$)/.exec(pathOf(record.request.url))?.[1] ??
        asString(body?.chatId))
      : undefined);
  const chat =
    record.chat ??
    (chatInBody !== undefined && /^\d+$/.test(chatInBody) ? Number(chatInBody) : undefined);
  const messageId =
    asString(message?.id) ?? (record.iface === 'bot' ? asString(body?.id) : undefined);
  const text = asString(message?.text) ?? asString(body?.text);
  const transcript = eventName === 'chat_finished' && body ? transcriptOf(body) : undefined;
  const callback =
    record.iface === 'widget' && body?.type === 'callback' && typeof body.eventId === 'number'
      ? {
          name: asString(body.name) ?? '?',
          eventId: body.eventId,
          event: asString(body.event) ?? '?',
        }
      : undefined;
  const push = kind?.startsWith(PUSH_KIND_PREFIX) ? pushOf(record, body) : undefined;
  return {
    run: record.run ?? '',
    seq: record.seq,
    ...(chat === undefined ? {} : { chat }),
    lane: laneOf[record.iface] ?? 'platform',
    iface: record.iface,
    direction: platformDirection(record),
    ...(kind === undefined ? {} : { kind }),
    name: push ? pushName(push, body) : callback === undefined ? name : `${name} ${callback.name}`,
    ...(record.attempt === undefined ? {} : { attempt: record.attempt }),
    startMs,
    endMs,
    wallStartMs: Number.isFinite(wallAt) ? wallAt - (record.protocolMs - startMs) : 0,
    // as the platform had it: a peer's reply after the platform's wait is its timeout (spec 8)
    ...(response ? { status: response.status } : {}),
    ...(failure === undefined ? {} : { failure }),
    ...(accepted === undefined ? {} : { accepted }),
    ...(errorReply === undefined ? {} : { errorReply }),
    ...(record.verdict?.ok === false
      ? { invalid: record.verdict.errors[0] ?? 'breaks the contract' }
      : {}),
    path: pathOf(record.request.url),
    ...(messageId === undefined ? {} : { messageId }),
    ...(text === undefined ? {} : { text }),
    ...(eventName === undefined ? {} : { event: eventName }),
    ...(customer === undefined ? {} : { customer }),
    ...(transcript === undefined ? {} : { transcript }),
    ...(callback === undefined ? {} : { callback }),
    ...(push === undefined ? {} : { push }),
    ...(record.cause === undefined ? {} : { cause: record.cause, causeBy: 'record' as const }),
  };
}

/** ` ✗ <the verdict's first error>` (cut to 100 characters) for an invalid exchange, else ''. */
export function invalidNote(s: TraceSpan): string {
  if (s.invalid === undefined) return '';
  return ` ✗ ${s.invalid.length > 100 ? `${s.invalid.slice(0, 99)}…` : s.invalid}`;
}

/**
 * True when an exchange failed: no reply, a rejected attempt, an HTTP error status, or a
 * verdict with errors (the journal's red rows).
 */
export function failedSpan(s: TraceSpan): boolean {
  return (
    s.failure !== undefined ||
    s.accepted === false ||
    (s.status ?? 200) >= 400 ||
    s.invalid !== undefined
  );
}
