/**
 * What the hook roles print: `hook-target`'s received events and `hook-fire`'s results, as
 * aligned lines with indented issues (`path: rule (spec X)`), in the style of exchange.ts.
 */
import type { ChalkInstance } from 'chalk';
import type { ContractIssue } from '../../contract/types.js';
import type { FireResult } from '../../roles/hooks/fire.js';
import type { HookTargetEvent, HookTargetListening } from '../../roles/hooks/target.js';
import {
  formatBanner,
  formatExchangeLine,
  formatIssueLines,
  formatMs,
  formatRejected,
} from './exchange.js';
import { plural } from '../../plural.js';
import { describeErrorPage } from '../../http/error-page.js';

const statusColor = (status: number, c: ChalkInstance) =>
  status >= 200 && status < 300 ? c.green : status >= 400 ? c.red : c.yellow;

/** What `hook-target` prints first: the URL to give the platform as its hook URL. */
export function formatHookTargetListening(event: HookTargetListening, c: ChalkInstance): string {
  const where = event.path === undefined ? 'any path' : event.path;
  return formatBanner(
    event.url,
    `give the platform this hook URL; events arrive as POST on ${where} (spec 4.4)`,
    c,
  );
}

/** `#2  attempt 1  chat_finished  chat 1042  ✓  none  → 200  3ms` + issues */
export function formatHookTargetEvent(event: HookTargetEvent, c: ChalkInstance): string {
  switch (event.type) {
    case 'hook-received': {
      const reply =
        'status' in event.reply
          ? { text: `→ ${event.reply.status}`, color: statusColor(event.reply.status, c) }
          : { text: `→ ${event.reply.noReply}`, color: c.red };
      const line = formatExchangeLine([
        { text: `#${event.request}`, width: 4, color: c.dim },
        { text: `attempt ${event.attempt}`, width: 9 },
        { text: event.eventName || '(no event_name)', width: 16, color: c.cyan },
        { text: event.chatId === undefined ? '' : `chat ${event.chatId}`, width: 10, color: c.dim },
        event.verdict.ok ? { text: '✓', color: c.green } : { text: '✗', color: c.red },
        { text: event.fault, width: 10, color: event.fault === 'none' ? c.dim : c.magenta },
        { text: reply.text, width: 7, color: reply.color },
        { text: formatMs(event.durationMs), color: c.dim },
      ]);
      return [line, ...formatIssueLines(event.verdict.errors, event.verdict.warnings, c)].join(
        '\n',
      );
    }
    case 'request-rejected':
      return formatRejected(event, c, 36);
    case 'target-error':
      return `${c.red('error')}  ${event.message}`;
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/** What `hook-fire` prints per event (`--json`: this object as one NDJSON line). */
export interface HookFiredEvent {
  type: 'hook-fired';
  event: string;
  url: string;
  request: unknown;
  requestVerdict: { ok: boolean; errors: ContractIssue[]; warnings: ContractIssue[] };
  status: number;
  reply: unknown;
  latencyMs: number;
  wallMs: number;
  verdict: { ok: boolean; errors: ContractIssue[]; warnings: ContractIssue[] };
}

/** event_name as sent (offline_messages stays), else the contract event. */
function eventNameOf(result: FireResult): string {
  const name = (result.request as { event_name?: unknown }).event_name;
  return typeof name === 'string' ? name : result.event;
}

/** A fire result as the NDJSON/pretty event. */
export function toHookFiredEvent(result: FireResult): HookFiredEvent {
  const pick = (v: FireResult['verdict']) => ({ ok: v.ok, errors: v.errors, warnings: v.warnings });
  return {
    type: 'hook-fired',
    event: eventNameOf(result),
    url: result.url,
    request: result.request,
    requestVerdict: pick(result.requestVerdict),
    status: result.status,
    reply: result.reply ?? result.replyText,
    latencyMs: result.latencyMs,
    wallMs: result.wallMs,
    verdict: pick(result.verdict),
  };
}

/**
 * `chat_accepted  → 200  12ms  ✓ reply conforms`, then the issues. The request and the reply
 * print with `verbose`; a body that breaks the contract, or one the receiver answered with a
 * 5xx, prints always (~1.3 KB a line per event buried the verdicts).
 */
export function formatHookFired(
  event: HookFiredEvent,
  c: ChalkInstance,
  options: { verbose?: boolean } = {},
): string {
  const line = formatExchangeLine([
    // client_attribute_updated (--profile docs), the longest name, keeps the columns
    { text: event.event, width: 24, color: c.cyan },
    // status 0: no reply came (hook-fire --all goes on past a timeout)
    event.status === 0
      ? { text: '→ —', width: 5, color: c.red }
      : { text: `→ ${event.status}`, width: 5, color: statusColor(event.status, c) },
    { text: formatMs(event.latencyMs), width: 6, color: c.dim },
    event.verdict.ok
      ? { text: '✓ reply conforms', color: c.green }
      : { text: '✗ reply breaks the contract', color: c.red },
  ]);
  const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  // a receiver's error page (an HTML traceback of many KB, found running a real Flask
  // receiver; Express's 140-character 404 page printed as ten lines of markup) is named by
  // its title, and any other long body cut to its start, unless --verbose
  const cut = (text: string): string => {
    // a receiver that died answers nothing (php -S after a fatal error): a blank after
    // "reply" read as if the line had been cut off
    if (text === '') return c.dim('(empty body)');
    if (options.verbose) return text;
    const page = describeErrorPage(text);
    if (page !== undefined) return `${page} ${c.dim('(--verbose prints it all)')}`;
    if (text.length <= 300) return text;
    const flat = text.replace(/\s+/g, ' ');
    return `${flat.slice(0, 240)}… ${c.dim(`(${text.length} characters; --verbose prints it all)`)}`;
  };
  // a --set or --from field the contract does not know (a typo: `chat.fo`, `visitr`) reaches
  // the receiver unflagged unless its warning is shown with the request
  const requestWarned = event.requestVerdict.warnings.length > 0;
  const requestNote = !event.requestVerdict.ok
    ? c.yellow('  (request breaks the contract)')
    : requestWarned
      ? c.yellow('  (request has contract warnings)')
      : '';
  // a 5xx is the receiver failing on what it got: the body it choked on is the clue (a PHP
  // library that throws on an event it does not know answers 500 with no body)
  const serverError = event.status >= 500 && event.status <= 599;
  const showRequest = options.verbose || !event.requestVerdict.ok || requestWarned || serverError;
  // status 0: no reply came, so there is none to show
  const showReply = event.status !== 0 && (options.verbose || !event.verdict.ok);
  return [
    line,
    ...(showRequest ? [`    ${c.dim('request')}  ${json(event.request)}${requestNote}`] : []),
    ...formatIssueLines(event.requestVerdict.errors, event.requestVerdict.warnings, c).map(
      (l) => `  ${l}`,
    ),
    ...(showReply ? [`    ${c.dim('reply  ')}  ${cut(json(event.reply))}`] : []),
    ...formatIssueLines(event.verdict.errors, event.verdict.warnings, c),
  ].join('\n');
}

/** What `hook-fire` prints last (`--json`: this object as one NDJSON line). */
export interface HookFireSummary {
  type: 'summary';
  fired: number;
  conform: number;
  broken: number;
  /** requests that broke the contract as sent (--set, --from): the receiver was given them */
  invalidRequests?: number;
  /** the chat the events were about (absent when none carried a chat_id) */
  chatId?: number;
  /** the chat id came from the --from body, so every run is about it */
  chatFromBody?: boolean;
  /** the chat is the one --chat-id named: no need to name the flag again */
  chatFromFlag?: boolean;
}

/**
 * The closing lines of `hook-fire`: how many replies conform, and the chat the events were
 * about, with the flag that sends more events about it.
 */
export function formatHookFireSummary(summary: HookFireSummary, c: ChalkInstance): string {
  const text = `${plural(summary.fired, 'event')} fired: ${plural(summary.conform, 'reply conforms', 'replies conform')}, ${summary.broken} ${summary.broken === 1 ? 'breaks' : 'break'} the contract`;
  // the replies decide the exit code; a request broken on purpose is said apart
  const invalid = summary.invalidRequests
    ? c.yellow(
        ` (${plural(summary.invalidRequests, 'request')} sent ${summary.invalidRequests === 1 ? 'breaks' : 'break'} it, as --set or --from gave ${summary.invalidRequests === 1 ? 'it' : 'them'})`,
      )
    : '';
  const chat =
    summary.chatId === undefined
      ? ''
      : `\n${c.dim(
          summary.chatFromBody
            ? `about chat ${summary.chatId}, the chat_id of the --from body (--set chat_id=<n> changes it)`
            : summary.chatFromFlag
              ? `about chat ${summary.chatId} (--chat-id)`
              : `about chat ${summary.chatId}; --chat-id ${summary.chatId} sends more events about it (each run is a new chat without it)`,
        )}`;
  return `\n${summary.broken > 0 ? c.red(text) : c.green(text)}${invalid}${chat}`;
}
