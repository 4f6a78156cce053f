import type { Readable } from 'node:stream';
import { FOREIGN_NOTE, type PlaceForeignEntry } from '../journal/har-read.js';
import { recordingValues, type RecordingValue } from '../journal/read-input.js';
import type { ExchangeRecord } from '../journal/record.js';
import { noteRecord, skipLine, type SkippedLines } from '../journal/skipped-lines.js';
import { linkConversation } from './links.js';
import { spanOf, type TraceSpan } from './span.js';

/** One conversation of a recording: a chat of one run, its exchanges linked and in order. */
export interface TracedConversation {
  run: string;
  chat: number;
  spans: TraceSpan[];
  /** exchanges past the per-conversation cap, counted and not kept */
  dropped: number;
}

export interface ReadTraceOptions {
  /**
   * a journal (`--record`: a platform, listen, proxy or replay recording; NDJSON or HAR), a
   * saved `GET /_sim/journal` answer, or `-` for stdin
   */
  file: string;
  /** what `-` reads (default process.stdin) */
  stdin?: Readable;
  /** only this chat (of every run in the file) */
  chat?: number;
  /** called for each conversation once it is complete (or the input ended) */
  onConversation: (conversation: TracedConversation) => void | Promise<void>;
  /** memory bounds (tests lower them) */
  limits?: Partial<TraceLimits>;
  /**
   * Places the entries of a HAR svc-cli did not write (a browser's or another proxy's) by
   * URL, method and body: `placeForeignEntry`, handed in (trace knows no contract) and
   * loaded only when the file is a HAR. Without it such entries all read as `channel in`.
   */
  placeForeign?: () => Promise<PlaceForeignEntry>;
}

export interface TraceLimits {
  /** a finished chat (chat_finished seen) is complete after this many more records */
  settleRecords: number;
  /** a chat this many records without one of its own is complete (a recording without hooks) */
  idleRecords: number;
  /** exchanges kept per conversation */
  maxSpans: number;
}

const DEFAULT_LIMITS: TraceLimits = { settleRecords: 1_000, idleRecords: 20_000, maxSpans: 50_000 };

/** What was read; `skipped` and `firstSkipped`: the lines that were not journal records. */
export interface TraceSummary extends SkippedLines {
  records: number;
  conversations: number;
  /** records outside any chat (status checks, control reads, rejected requests) */
  outside: number;
  /** entries of a foreign HAR placed on no interface (page assets...), left out; the first */
  unplaced?: { count: number; first: string };
  /** the first chat ids the file holds (at most CHATS_NAMED), for a `--chat` that matched none */
  chats?: number[];
}

/** How many chat ids a summary names: enough to show what `--chat` takes. */
export const CHATS_NAMED = 5;

interface Open {
  run: string;
  chat: number;
  spans: TraceSpan[];
  dropped: number;
  /** the reader's record count at this chat's last record, and when chat_finished came */
  lastAt: number;
  /** the customer keys that pointed at this chat (forgotten with it) */
  customers: Set<string>;
  finishedAt?: number;
}

function isRecord(value: unknown): value is ExchangeRecord {
  const r = value as Partial<ExchangeRecord> | null;
  return (
    r !== null &&
    typeof r === 'object' &&
    r.type === 'exchange' &&
    typeof r.seq === 'number' &&
    typeof r.protocolMs === 'number' &&
    typeof r.request?.url === 'string'
  );
}

/**
 * Reads a journal a line at a time and hands out each conversation (a chat of one run) as it
 * completes, linked. Memory holds the open conversations' spans (a few fields each), never
 * the file: a conversation is handed out once its chat_finished hook is `settleRecords` behind,
 * or when it was idle for `idleRecords`, and at the end of the input.
 * @example await readTrace({ file: 'session.ndjson', onConversation: (c) => print(c) });
 */
export async function readTrace(options: ReadTraceOptions): Promise<TraceSummary> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const open = new Map<string, Open>();
  /** per run: the chat of each customer (sender.id, recipient.id, client_id) */
  const chatOfCustomer = new Map<string, number>();
  /** per run: the highest chat id seen, after which a customer with no chat id is numbered */
  const lastChatOfRun = new Map<string, number>();
  const summary: TraceSummary = { records: 0, conversations: 0, outside: 0, skipped: 0 };
  const hand = async (key: string, conv: Open): Promise<void> => {
    open.delete(key);
    // a customer's later records without a chat of their own start nothing: memory stays
    // bounded by the open conversations, not by every customer the recording ever saw
    for (const customer of conv.customers)
      if (chatOfCustomer.get(customer) === conv.chat) chatOfCustomer.delete(customer);
    summary.conversations++;
    await options.onConversation({
      run: conv.run,
      chat: conv.chat,
      spans: linkConversation(conv.spans),
      dropped: conv.dropped,
    });
  };
  const sweep = async (): Promise<void> => {
    for (const [key, conv] of open) {
      const settled =
        conv.finishedAt !== undefined && summary.records - conv.finishedAt >= limits.settleRecords;
      if (settled || summary.records - conv.lastAt >= limits.idleRecords) await hand(key, conv);
    }
  };
  for await (const { value, n } of valuesOf(options, summary)) {
    if (!isRecord(value)) {
      skipLine(summary, n);
      continue;
    }
    summary.records++;
    noteRecord(summary);
    const span = spanOf(value);
    const customerKey =
      span.customer === undefined ? undefined : `${span.run}\u0000${span.customer}`;
    // the chat: recorded, in the body, in a control path, else the customer's chat so far
    if (span.chat === undefined && span.iface === 'control') {
      const inPath = /\/chats\/(\d+)(\/|$)/.exec(span.path)?.[1];
      if (inPath !== undefined) span.chat = Number(inPath);
    }
    if (span.chat === undefined && customerKey !== undefined) {
      const known = chatOfCustomer.get(customerKey);
      // a proxy between real parties (or a foreign HAR of their traffic) never learns the
      // platform's chat ids: a customer's first message in its run opens a chat of its own,
      // numbered after the run's others. Only those: the simulator's refused first message
      // (no chat) must not take the number its next chat will have.
      if (known !== undefined) span.chat = known;
      else if (learnsNoChatIds(value)) span.chat = (lastChatOfRun.get(span.run) ?? 0) + 1;
    }
    if (span.chat !== undefined && span.chat > (lastChatOfRun.get(span.run) ?? 0))
      lastChatOfRun.set(span.run, span.chat);
    if (span.chat === undefined) {
      summary.outside++;
      continue;
    }
    if (customerKey !== undefined) chatOfCustomer.set(customerKey, span.chat);
    const chats = (summary.chats ??= []);
    if (chats.length < CHATS_NAMED && !chats.includes(span.chat)) chats.push(span.chat);
    if (options.chat !== undefined && span.chat !== options.chat) continue;
    const key = `${span.run}\u0000${span.chat}`;
    let conv = open.get(key);
    if (!conv) {
      conv = {
        run: span.run,
        chat: span.chat,
        spans: [],
        dropped: 0,
        lastAt: summary.records,
        customers: new Set(),
      };
      open.set(key, conv);
    }
    if (customerKey !== undefined) conv.customers.add(customerKey);
    conv.lastAt = summary.records;
    if (conv.spans.length < limits.maxSpans) conv.spans.push(span);
    else conv.dropped++;
    if (span.event === 'chat_finished' && span.iface === 'hook') conv.finishedAt = summary.records;
    if (summary.records % 256 === 0) await sweep();
  }
  // in the order the file began them (the map's): a seq is per run, and a file may hold
  // several runs side by side (replay --record)
  for (const [key, conv] of [...open]) await hand(key, conv);
  return summary;
}

/**
 * Whether the party that wrote `record` never learns the platform's chat ids: a proxy between
 * real parties, a foreign HAR, or the integrator's side (`listen --record`: an agent message
 * it received names the customer, `recipient.id`, and no chat). The platform records an agent
 * message as one it sent, so one recorded as received was written by the integrator's side.
 */
function learnsNoChatIds(record: ExchangeRecord): boolean {
  if (record.notes?.some((note) => note === 'proxy' || note === FOREIGN_NOTE)) return true;
  return (
    record.iface === 'channel' &&
    record.direction === 'in' &&
    (record.kind?.startsWith('channel.agent.') ?? false)
  );
}

/**
 * The values of a journal in order, each with its line (a document's entry: its number),
 * undefined for a line that is not JSON: the one reader of recordings, with the entries of a
 * foreign HAR placed nowhere counted in `summary.unplaced`.
 */
function valuesOf(
  { file, stdin, placeForeign }: ReadTraceOptions,
  summary: TraceSummary,
): AsyncGenerator<RecordingValue> {
  const counted = async (): Promise<PlaceForeignEntry | undefined> => {
    const place = await placeForeign?.();
    return (
      place &&
      ((method, url, body) => {
        const placed = place(method, url, body);
        if (placed === undefined) {
          summary.unplaced ??= { count: 0, first: `${method} ${url}` };
          summary.unplaced.count++;
        }
        return placed;
      })
    );
  };
  return recordingValues({ path: file, ...(stdin ? { stdin } : {}), placeForeign: counted });
}
