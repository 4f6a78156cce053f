import type { ChalkInstance } from 'chalk';
import { escapeControlChars } from './control-chars.js';
import { invalidNote, LANES, type Lane, type TraceSpan } from '../../trace/span.js';
import type { TracedConversation } from '../../trace/read.js';
import { failedSpan } from '../../trace/otlp.js';
import type { Violation } from '../../trace/invariants.js';
import { plural } from '../../plural.js';
import { fitLine, wrapWords } from './fit.js';

/** Column width of one lane in the timeline; narrower below WIDE_FROM terminal columns. */
const WIDTH = 12;
const NARROW_WIDTH = 10;
/**
 * A timeline line is about 135 columns (offset, gap, five lanes, the exchange): a terminal
 * narrower than this gets narrower lanes and the exchange on a line of its own (an 80-column
 * terminal broke every line in two, lane header included). Not a terminal: the wide layout.
 */
export const WIDE_FROM = 130;
/** The columns before the lanes: two, the offset (9), two, the gap (9), two. */
const TIMES_WIDTH = 24;
/** The narrowest lane: an arrow between two lanes still has a shaft. */
const MIN_WIDTH = 3;
/** Where a narrow timeline's exchange line starts, under its lanes. */
const EXCHANGE_INDENT = 4;
const LANE_TITLES: Record<Lane, string> = {
  integrator: 'integrator',
  platform: 'platform',
  bot: 'bot',
  hooks: 'hooks',
  widget: 'widget',
};

const secs = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;
const center = (lane: Lane, width = WIDTH): number =>
  LANES.indexOf(lane) * width + Math.floor(width / 2);

/**
 * The lanes of one exchange: a line from the party's lane to the platform's, the arrow head
 * at the receiving end (`○────▶●` a request the platform served, `●────▶○` one it sent).
 */
export function laneArt(span: TraceSpan, width = WIDTH): string {
  const cells = Array.from({ length: LANES.length * width }, () => ' ');
  for (const lane of LANES) cells[center(lane, width)] = '┆';
  const platform = center('platform', width);
  if (span.lane === 'platform') {
    cells[platform] = '●';
    return cells.join('').trimEnd();
  }
  const party = center(span.lane, width);
  const [from, to] = span.direction === 'in' ? [party, platform] : [platform, party];
  const step = to > from ? 1 : -1;
  for (let i = from; i !== to; i += step) cells[i] = '─';
  cells[party] = '○';
  cells[platform] = '●';
  cells[to - step] = step > 0 ? '▶' : '◀';
  return cells.join('').trimEnd();
}

/**
 * The lane titles over their lanes, each on the first row where it stays a space clear of
 * the title before it: a lane narrower than "integrator" puts "platform" on a second row.
 */
function laneHeads(width: number): string[] {
  const rows: string[][] = [];
  const free: number[] = [];
  for (const lane of LANES) {
    const title = LANE_TITLES[lane];
    const at = Math.max(0, center(lane, width) - Math.floor(title.length / 2));
    let row = free.findIndex((column) => column <= at);
    if (row === -1) {
      row = rows.length;
      rows.push(Array.from({ length: LANES.length * width }, () => ' '));
    }
    const cells = rows[row] ?? [];
    for (let i = 0; i < title.length; i++) cells[at + i] = title[i] ?? ' ';
    free[row] = at + title.length + 1;
  }
  return rows.map((cells) => cells.join('').trimEnd());
}

/**
 * The widest lane (at most NARROW_WIDTH) whose titles and arrows fit `columns` beside the
 * times: a 60-column terminal gets 7, an 80-column one 10. Below about 40 columns nothing fits
 * and the lanes stay at MIN_WIDTH.
 */
function narrowWidth(columns: number): number {
  for (let width = NARROW_WIDTH; width > MIN_WIDTH; width--) {
    const lanes = Math.max(center('widget', width) + 1, ...laneHeads(width).map((r) => r.length));
    if (TIMES_WIDTH + lanes <= columns) return width;
  }
  return MIN_WIDTH;
}

/** The longest quoted text of an exchange, and the shortest a narrow terminal cuts it to. */
const QUOTE_MAX = 40;
const QUOTE_MIN = 12;

/** ` "text"`, cut with an ellipsis to at most `max` characters. */
function quote(text: string | undefined, max = QUOTE_MAX): string {
  if (text === undefined) return '';
  // a text the peer sent: its control characters escaped, never sent to the terminal
  const line = escapeControlChars(text.replace(/[ \t\n]+/g, ' '));
  return ` "${line.length > max ? `${line.slice(0, max - 1)}…` : line}"`;
}

/** What happened to an exchange: the status and the platform's verdict on a delivery. */
function outcomeOf(s: TraceSpan): string {
  const invalid = invalidNote(s);
  if (s.failure !== undefined) return `${s.failure}${invalid}`;
  const status = s.status === undefined ? '' : String(s.status);
  if (s.errorReply !== undefined) return `${status} error reply (${s.errorReply})${invalid}`;
  if (s.accepted === true) return `${status} accepted${invalid}`;
  if (s.accepted === false) return `${status} rejected${invalid}`;
  return `${status}${invalid}`;
}

/** A one-line heading of a conversation: chat, run, exchanges, protocol time it spans. */
export function conversationHeading(c: TracedConversation): string {
  const first = c.spans[0]?.startMs ?? 0;
  const last = c.spans.reduce((end, s) => Math.max(end, s.endMs), first);
  const dropped = c.dropped > 0 ? ` (${c.dropped} more not kept)` : '';
  // a HAR svc-cli did not write (a browser's) names no run: nothing to say of it
  const run = c.run === '' ? '' : ` · run ${c.run}`;
  return `chat ${c.chat}${run} · ${plural(c.spans.length, 'exchange')}${dropped} over ${secs(last - first)}`;
}

/**
 * One conversation as a timeline: a lane per party, protocol time from the chat's first
 * exchange, the gap since the exchange before, attempts, and each exchange's cause.
 * @example for (const line of formatTimeline(conversation, chalk)) out.line(line);
 */
export function formatTimeline(
  c: TracedConversation,
  chalk: ChalkInstance,
  columns = Number.POSITIVE_INFINITY,
): string[] {
  const narrow = columns < WIDE_FROM;
  const width = narrow ? narrowWidth(columns) : WIDTH;
  const fit = (line: string, indent?: number): string[] =>
    Number.isFinite(columns) ? fitLine(line, columns, indent).split('\n') : [line];
  const lines = fit(conversationHeading(c)).map((line) => chalk.bold(line));
  const [heads = '', ...below] = laneHeads(width);
  lines.push(
    chalk.dim(`  ${'offset'.padStart(9)}  ${'gap'.padStart(9)}  ${heads}`),
    ...below.map((row) => chalk.dim(`${' '.repeat(TIMES_WIDTH)}${row}`)),
  );
  const start = c.spans[0]?.startMs ?? 0;
  let previous = start;
  for (const s of c.spans) {
    const gap = s.startMs - previous;
    previous = s.startMs;
    const attempt =
      s.attempt !== undefined && (s.attempt > 1 || s.cause !== undefined)
        ? ` attempt ${s.attempt}`
        : '';
    const cause =
      s.cause === undefined ? '' : ` ← #${s.cause}${s.causeBy === 'inferred' ? '' : ' (recorded)'}`;
    const outcome = outcomeOf(s);
    const paint = failedSpan(s)
      ? chalk.red
      : s.errorReply !== undefined
        ? chalk.yellow
        : s.accepted
          ? chalk.green
          : (t: string) => t;
    const times = `  ${`+${secs(s.startMs - start)}`.padStart(9)}  ${(gap > 0 ? `+${secs(gap)}` : '').padStart(9)}  `;
    // in a terminal the exchange fits the columns beside (wide) or under (narrow) its lanes:
    // its quoted text is cut first, then what is still too long goes on lines below it
    const at = narrow ? EXCHANGE_INDENT : times.length + LANES.length * WIDTH + 1;
    const head = `#${s.seq} ${s.name}${attempt}`;
    const tail = `${outcome === '' ? '' : ` ${outcome}`}${cause}`;
    // a narrow exchange line wraps at the width of its continuation lines (2 columns in)
    const room = columns - at - (narrow ? 2 : 0) - head.length - tail.length - ' ""'.length;
    const quoted = quote(s.text, room < QUOTE_MAX ? Math.max(QUOTE_MIN, room) : QUOTE_MAX);
    const exchange = `${head}${quoted}${outcome === '' ? '' : ` ${paint(outcome)}`}${chalk.dim(cause)}`;
    if (narrow) {
      // a continuation hangs under the exchange's name
      const [first = '', ...more] = wrapWords(exchange, columns - at - 2);
      lines.push(
        `${times}${paint(laneArt(s, width))}`.trimEnd(),
        `${' '.repeat(at)}${first}`.trimEnd(),
        ...more.map((text) => `${' '.repeat(at + 2)}${text}`.trimEnd()),
      );
      continue;
    }
    const art = laneArt(s).padEnd(LANES.length * WIDTH);
    lines.push(...fit(`${times}${paint(art)} ${exchange}`.trimEnd(), at));
  }
  return lines;
}

/** Protocol ms to whole µs: a float sum (15.974000000000016) is noise in the output. */
const micros = (ms: number): number => Math.round(ms * 1000) / 1000;

/** The NDJSON line of one exchange of a conversation (`trace --json`). */
export function spanEvent(
  c: TracedConversation,
  s: TraceSpan,
  traceId: string,
  spanId: string,
  parentSpanId: string | undefined,
) {
  const start = c.spans[0]?.startMs ?? 0;
  return {
    type: 'span' as const,
    traceId,
    spanId,
    ...(parentSpanId === undefined ? {} : { parentSpanId }),
    run: c.run,
    chat: c.chat,
    seq: s.seq,
    ...(s.cause === undefined ? {} : { cause: s.cause, causeBy: s.causeBy }),
    lane: s.lane,
    interface: s.iface,
    direction: s.direction,
    ...(s.kind === undefined ? {} : { kind: s.kind }),
    name: s.name,
    ...(s.attempt === undefined ? {} : { attempt: s.attempt }),
    offsetMs: micros(s.startMs - start),
    startMs: micros(s.startMs),
    durationMs: micros(s.endMs - s.startMs),
    ...(s.status === undefined ? {} : { status: s.status }),
    ...(s.failure === undefined ? {} : { failure: s.failure }),
    ...(s.accepted === undefined ? {} : { accepted: s.accepted }),
    ...(s.errorReply === undefined ? {} : { errorReply: s.errorReply }),
    ...(s.messageId === undefined ? {} : { messageId: s.messageId }),
    ...(s.event === undefined ? {} : { event: s.event }),
  };
}

/** A broken invariant under its conversation's timeline, in red. */
export function formatViolation(
  v: Violation,
  chalk: ChalkInstance,
  columns = Number.POSITIVE_INFINITY,
): string[] {
  const between = v.exchanges.map((n) => `#${n}`).join(' and ');
  const line = `  ✗ ${v.rule} (spec ${v.spec}): ${v.message} [${between}]`;
  // in a terminal broken at spaces as the exchanges are, the rest hanging under the rule
  // name; each line painted on its own, so a colour code never sits across a break
  const lines = Number.isFinite(columns)
    ? fitLine(line, columns, VIOLATION_INDENT).split('\n')
    : [line];
  return lines.map((l) => chalk.red(l));
}

/** Where a violation's continuation lines start: under its rule name, after `  ✗ `. */
const VIOLATION_INDENT = 4;
