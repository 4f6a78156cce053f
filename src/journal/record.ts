/** The journal's record types, apart from the journal so the HAR writer can use them too. */

/** One HTTP exchange (or attempt) as recorded: request, response, timings, verdict. */
export interface ExchangeRecord {
  type: 'exchange';
  /** 1-based order in this journal */
  seq: number;
  /**
   * the journal that wrote it: one random id per journal (per run of a command), so runs
   * appended to one file can be told apart
   */
  run?: string;
  /** wall time, ISO 8601 */
  at: string;
  /** protocol time since the clock started, ms */
  protocolMs: number;
  /** which interface: A channel, B bot, C widget, D hooks, or the simulator's control API */
  iface: 'channel' | 'bot' | 'hook' | 'widget' | 'control';
  /** relative to the process that records: `in` = it served the request, `out` = it sent it */
  direction: 'in' | 'out';
  /** the contract kind of the request body, when known */
  kind?: string;
  /** delivery attempt number (1-based), for redelivered messages */
  attempt?: number;
  /**
   * the chat the exchange belongs to (the conversation id of `svc-cli trace`), when the
   * recorder knew it; a trace infers it for the rest (chat_id in the body, the customer's chat).
   * `undefined` is allowed so the ingest path sets it without building a spread object; it is
   * not serialised.
   */
  chat?: number | undefined;
  /**
   * the seq of the exchange in this journal that caused this one, when the recorder knew it
   * (a redelivery attempt names the attempt before it); a trace infers the other links
   */
  cause?: number;
  request: { method: string; url: string; headers?: Record<string, string>; body?: string };
  response?: { status: number; headers?: Record<string, string>; body?: string };
  /** no response: why (timeout, refused, reset, hang, ...) */
  failure?: { reason: string; message: string };
  /** protocol ms from request to response (or failure) */
  durationMs?: number;
  /** wall ms from request to response */
  wallMs?: number;
  verdict?: { ok: boolean; errors: string[]; warnings: string[] };
  /** the fault injected, in --fault syntax */
  fault?: string;
  /** free-form notes: transfer mode, cut text, ... */
  notes?: string[];
}

export type ExchangeInput = Omit<ExchangeRecord, 'type' | 'seq' | 'at' | 'run'> & { at?: string };

/**
 * The kind prefix of an event the platform pushed to a widget page over server-sent events
 * (`widget.push.agent_message`): one record per event written to a page's stream, the event's
 * data as the request body, its stream id in a note (`id: 7`). A push has no reply.
 */
export const PUSH_KIND_PREFIX = 'widget.push.';

/** True for a server-sent event pushed to a widget page (no request was answered). */
export const isPushRecord = (record: Pick<ExchangeRecord, 'kind'>): boolean =>
  record.kind?.startsWith(PUSH_KIND_PREFIX) ?? false;

/** The stream id (`id:` field) of a pushed event, from its record's notes. */
export function pushIdOf(record: Pick<ExchangeRecord, 'notes'>): number | undefined {
  const note = record.notes?.find((n) => n.startsWith('id: '));
  const id = note === undefined ? NaN : Number(note.slice(4));
  return Number.isInteger(id) ? id : undefined;
}

/**
 * The note svc-cli proxy journals on an attempt its own `--fault` answered: the upstream never
 * got it (record to-fixture leaves such attempts out of a fixture).
 */
export const NOT_FORWARDED_NOTE = 'not forwarded: fault';

/**
 * The note beside `accepted` on a delivery the integrator answered with an error object (spec
 * 2.2), followed by its `code: message`: the trace shows it as the error the agent saw.
 */
export const ERROR_REPLY_NOTE = 'error reply: ';
