/**
 * One aligned, coloured line per exchange, for every role and the platform alike: the
 * integrator's listener, its sends, and later the simulator's deliveries.
 */
import type { ChalkInstance } from 'chalk';
import type { ContractIssue } from '../../contract/types.js';
import { wrapWords } from '../help-text.js';
import type {
  AgentMessageEvent,
  ListenerEvent,
  ListeningEvent,
} from '../../roles/integrator/events.js';
import type { RequestRejectedEvent } from '../../wire-errors.js';

/** A cell of an exchange line: text padded to `width`, then coloured. */
export interface Cell {
  text: string;
  width?: number;
  color?: (s: string) => string;
}

/** Joins cells with two spaces, padding before colouring so columns stay aligned. */
export function formatExchangeLine(cells: readonly Cell[]): string {
  return cells
    .map((cell) => {
      const padded = cell.width === undefined ? cell.text : cell.text.padEnd(cell.width);
      return cell.color ? cell.color(padded) : padded;
    })
    .join('  ')
    .trimEnd();
}

/** `path: rule (spec X)`, the one template of a violation. */
export function formatIssueLine(issue: ContractIssue): string {
  const where = issue.path === '' ? '(root)' : issue.path;
  return issue.spec === ''
    ? `${where}: ${issue.rule}`
    : `${where}: ${issue.rule} (spec ${issue.spec})`;
}

/** Issues as indented continuation lines: errors red, warnings yellow. */
export function formatIssueLines(
  errors: readonly ContractIssue[],
  warnings: readonly ContractIssue[],
  c: ChalkInstance,
): string[] {
  return [
    ...errors.map((i) => `    ${c.red('✗')} ${formatIssueLine(i)}`),
    ...warnings.map((i) => `    ${c.yellow('!')} ${formatIssueLine(i)}`),
  ];
}

export const formatMs = (ms: number): string => `${Math.round(ms)}ms`;

const statusColor = (status: number, c: ChalkInstance) =>
  status >= 200 && status < 300 ? c.green : status >= 400 ? c.red : c.yellow;

/**
 * A serving command's banner: `listening  <url>` alone on its first line (what a script or
 * a person looks for), then what to do with it, dim and indented, wrapped to fit 80 columns.
 */
export function formatBanner(url: string, note: string, c: ChalkInstance): string {
  return [
    `${c.cyan('listening')}  ${c.bold(url)}`,
    ...wrapWords(note, 78).map((line) => `  ${c.dim(line)}`),
  ].join('\n');
}

/**
 * A banner's first line only, for `--quiet`: the URL, without the explanation (a proxy's
 * banner keeps its lines, each a URL a party must use).
 */
export const bannerLineOnly =
  <E>(format: (event: E, c: ChalkInstance) => string) =>
  (event: E, c: ChalkInstance): string =>
    format(event, c).split('\n', 1)[0]!;

/** What `listen` prints first: the URL to give the platform. */
export function formatListening(event: ListeningEvent, c: ChalkInstance): string {
  const path = event.channel === undefined ? '<channel_public_id>' : event.channel;
  return formatBanner(
    event.url,
    `give the platform this integrator URL, or that URL plus a path (${event.url}/agent-messages); agent messages arrive as POST <integrator-url>/${path}`,
    c,
  );
}

/** `#3  attempt 2  ch-42  channel.agent.text  chunked  ✓  status:500  → 500  12ms` */
export function formatAgentMessage(event: AgentMessageEvent, c: ChalkInstance): string {
  const reply =
    'status' in event.reply
      ? { text: `→ ${event.reply.status}`, color: statusColor(event.reply.status, c) }
      : { text: `→ ${event.reply.noReply}`, color: c.red };
  const line = formatExchangeLine([
    { text: `#${event.request}`, width: 4, color: c.dim },
    { text: `attempt ${event.attempt}`, width: 9 },
    { text: event.channel, width: 12, color: c.cyan },
    { text: event.kind, width: 24 },
    { text: event.transfer, width: 14, color: c.dim },
    event.verdict.ok ? { text: '✓', color: c.green } : { text: '✗', color: c.red },
    { text: event.fault, width: 12, color: event.fault === 'none' ? c.dim : c.magenta },
    { text: reply.text, width: 7, color: reply.color },
    { text: formatMs(event.durationMs), color: c.dim },
  ]);
  return [line, ...formatIssueLines(event.verdict.errors, event.verdict.warnings, c)].join('\n');
}

/**
 * A request a role refused (404 path, 405, 413, bad JSON): `pathWidth` lines its method and
 * path up with the role's other lines (the listener's are wider than hook-target's).
 */
export function formatRejected(
  event: RequestRejectedEvent,
  c: ChalkInstance,
  pathWidth = 46,
): string {
  return formatExchangeLine([
    { text: '#-', width: 4, color: c.dim },
    { text: `${event.method} ${event.path}`, width: pathWidth },
    { text: '✗', color: c.red },
    { text: event.code, width: 12, color: c.yellow },
    { text: `→ ${event.status}`, width: 7, color: c.red },
    { text: event.message, color: c.dim },
  ]);
}

/** Every listener event as a human line. */
export function formatListenerEvent(event: ListenerEvent, c: ChalkInstance): string {
  switch (event.type) {
    case 'agent-message':
      return formatAgentMessage(event, c);
    case 'request-rejected':
      return formatRejected(event, c);
    case 'listener-error':
      return `${c.red('error')}  ${event.message}`;
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/** What a send command prints (`--json`: this object as one NDJSON line). */
export interface SentEvent {
  type: 'sent';
  kind: string;
  status: number;
  latencyMs: number;
  body: string;
  forced: boolean;
  verdict: { ok: boolean; errors: ContractIssue[]; warnings: ContractIssue[] };
  /** --force: the platform refused the flagged payload (4xx), as it should (exit 0) */
  refusedAsExpected?: boolean;
}

/** `200  channel.customer.text  14ms  {"result":"ok"}` */
export function formatSent(event: SentEvent, c: ChalkInstance): string {
  const line = formatExchangeLine([
    { text: String(event.status), width: 3, color: statusColor(event.status, c) },
    { text: event.kind, width: 27 },
    { text: formatMs(event.latencyMs), width: 6, color: c.dim },
    { text: event.body.length > 200 ? `${event.body.slice(0, 200)}…` : event.body },
    ...(event.forced ? [{ text: '(sent with --force)', color: c.yellow }] : []),
  ]);
  return [line, ...formatIssueLines(event.verdict.errors, event.verdict.warnings, c)].join('\n');
}

/** What `status` prints. */
export interface StatusEvent {
  type: 'status';
  availability: 'online' | 'offline';
  status: number;
  body: string;
  latencyMs: number;
}

export function formatStatus(event: StatusEvent, c: ChalkInstance): string {
  return formatExchangeLine([
    {
      text: event.availability,
      width: 7,
      color: event.availability === 'online' ? c.green : c.yellow,
    },
    { text: `body ${event.body.trim()}`, width: 6, color: c.dim },
    { text: formatMs(event.latencyMs), color: c.dim },
  ]);
}
