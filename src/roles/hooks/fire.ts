import type { Dispatcher } from 'undici';
import { createClock, describeWallTime, type Clock } from '../../clock.js';
import {
  DOCS_HOOK_EVENTS,
  HOOK_EVENTS,
  type DocsHookEventName,
  type HookEventName,
} from '../../contract/hooks.js';
import { validate } from '../../contract/validate.js';
import { minimalHookReply, validateHookReply } from '../../contract/hook-reply.js';
import type { RuleCode } from '../../contract/rule-codes.js';
import type { ContractIssue, ValidationResult } from '../../contract/types.js';
import { SvcError } from '../../errors.js';
import { postJson } from '../../http/client.js';
import { trailingSlashHint } from '../../http/trailing-slash.js';
import { WAIT_HINT } from '../../http/reach.js';
import { svcRoleOf } from '../../http/role-header.js';
import type { Journal } from '../../journal/index.js';
import {
  buildSampleDocsHookEvent,
  buildSampleHookEvent,
  HOOK_LIFECYCLE,
  pickFreshChatId,
} from './samples.js';
import { parseSetFlag, setPath } from './set-path.js';
import { recordExchange } from '../../journal/index.js';
import { closestNames } from '../../suggest.js';

/** Assumed wait for a hook reply (spec 8 is silent): the platform's 10 s. */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

export interface FireHookOptions {
  /**
   * A reply that does not come within the timeout is a result that breaks the contract (no
   * reply), not a thrown SVC_E_HOOK_TIMEOUT: `--all` goes on to the next event.
   */
  timeoutAsResult?: boolean;
  /** the hook receiver's URL (spec 4.4) */
  url: string;
  /** the event to fire; `offline_messages` is accepted (spec 6.2 note) */
  event?: string;
  /** send this body instead of the realistic default (`--from file`) */
  body?: unknown;
  /** `path=value` overrides (`--set`), applied in order */
  sets?: string[];
  /** spec 6.2: send offline_message under the field table's name `offline_messages` */
  offlineName?: 'offline_message' | 'offline_messages';
  /** assign_to for chat_assigned (fireAllHooks passes the chat_accepted reply's crm_link) */
  assignTo?: string;
  /**
   * the chat the event is about (its chat_id; `--chat-id`): give the one an earlier call
   * sent to build one chat event by event. Default: a fresh chat per call (fireAllHooks: one
   * fresh chat for the whole lifecycle); a `body` keeps its own unless this is given
   */
  chatId?: number;
  /** protocol ms to wait for the whole reply (default 10 s, an assumption) */
  timeoutMs?: number;
  clock?: Clock;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  journal?: Journal;
  /** the body's JSON text as sent (a profile's payload forms, `conform hooks --profile`) */
  reshape?: (kind: string, text: string) => string;
  /**
   * `docs` (`--profile docs`): the public Webhooks page's client_updated and
   * client_attribute_updated may be fired too (docs/FIDELITY.md); default `spec`
   */
  events?: 'spec' | 'docs';
}

/** An event hook-fire can send: the spec's, or (docs profile) one of the public page's. */
export type FiredEventName = HookEventName | DocsHookEventName;

const isDocsEvent = (name: string): name is DocsHookEventName =>
  (DOCS_HOOK_EVENTS as readonly string[]).includes(name);

export interface FireResult {
  /** the contract event (offline_messages counts as offline_message) */
  event: FiredEventName;
  url: string;
  request: unknown;
  /** the body as sent, checked against `hook.<event>` (a warning only: it is sent anyway) */
  requestVerdict: ValidationResult;
  status: number;
  replyText: string;
  reply?: unknown;
  /** the reply checked against `hook.<event>.reply` (spec 6.2) */
  verdict: ValidationResult;
  /** protocol ms from request to complete reply */
  latencyMs: number;
  wallMs: number;
  /** the body's chat_id as sent (a number); absent for events without one (offline_message) */
  chatId?: number;
  /**
   * Another of svc-cli's serving roles answered (its `x-svc-role` header): `listen` answers
   * 200 `{"result":"ok"}`, a valid hook reply, so the verdict alone cannot tell.
   */
  answeredBy?: { command: string; plays: string };
}

/**
 * The contract event for a name; `offline_messages` is offline_message (spec 6.2 note). The
 * public Webhooks page's client events only with `events: 'docs'`; without it their refusal
 * says how to send them.
 */
export function resolveHookEvent(name: string, events: 'spec' | 'docs' = 'spec'): FiredEventName {
  if (name === 'offline_messages') return 'offline_message';
  if ((HOOK_EVENTS as readonly string[]).includes(name)) return name as HookEventName;
  if (isDocsEvent(name)) {
    if (events === 'docs') return name;
    throw new SvcError(
      'SVC_E_UNKNOWN_EVENT',
      `Could not fire "${name}": it is an event of the public Webhooks page, beyond spec 6.2.`,
      'Add --profile docs to fire it (docs/FIDELITY.md).',
    );
  }
  const known = events === 'docs' ? [...HOOK_EVENTS, ...DOCS_HOOK_EVENTS] : [...HOOK_EVENTS];
  const [closest] = closestNames(name, [...known, 'offline_messages'], { maxDistance: 3 });
  throw new SvcError(
    'SVC_E_UNKNOWN_EVENT',
    `Could not fire "${name}": it is not a hook event of spec 6.2.${closest ? ` Did you mean ${closest}?` : ''}`,
    `Events: ${known.join(', ')} (or offline_messages).`,
  );
}

/** spec 6.2: offline_message has no chat_id; nor have the public page's client events. */
const carriesChatId = (event: FiredEventName): boolean =>
  event !== 'offline_message' && !isDocsEvent(event);

/** The body to send: the given one, or the realistic default, with the overrides applied. */
function buildBody(event: FiredEventName, options: FireHookOptions): Record<string, unknown> {
  const offlineName =
    options.offlineName ?? (options.event === 'offline_messages' ? 'offline_messages' : undefined);
  if (options.chatId !== undefined && !carriesChatId(event))
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not fire ${event} with --chat-id: ${event} is about no chat and carries no chat_id (spec 6.2).`,
      'Drop --chat-id for this event.',
    );
  const base =
    options.body !== undefined
      ? structuredClone(options.body)
      : isDocsEvent(event)
        ? buildSampleDocsHookEvent(event)
        : buildSampleHookEvent(event, {
            ...(offlineName ? { offlineName } : {}),
            ...(options.assignTo ? { assignTo: options.assignTo } : {}),
            chatId: options.chatId ?? pickFreshChatId(),
          });
  if (base === null || typeof base !== 'object' || Array.isArray(base)) {
    throw new SvcError('SVC_E_HOOK_BODY', 'Could not fire: the body must be a JSON object.');
  }
  const body = base as Record<string, unknown>;
  // --from with --chat-id: the file's event, about the chat named
  if (options.body !== undefined && options.chatId !== undefined) body.chat_id = options.chatId;
  for (const set of options.sets ?? []) {
    const { path, value } = parseSetFlag(set);
    setPath(body, path, value);
  }
  return body;
}

/** What to try when the receiver gave no answer (refused, reset, or the party behind a proxy). */
function unreachableHint(outcome: { reason: string; message: string }, url: string): string {
  if (outcome.message.startsWith('through svc-cli proxy'))
    return "svc-cli proxy answered at this URL, but the receiver behind it did not: start it, or check the proxy's --receiver-url.";
  if (outcome.reason === 'reset')
    return `The receiver closed the connection without an answer; if it serves HTTPS, use an https:// URL.`;
  if (outcome.reason === 'refused') return `${startReceiverHint(url)}; ${WAIT_HINT}`;
  return startReceiverHint(url);
}

/** What to do when nothing answers at a hook URL: start hook-target on its port. */
export function startReceiverHint(url: string): string {
  return `Is the receiver running? Try: svc-cli hook-target --port ${portOf(url)}`;
}

/**
 * Fires one synthetic hook event at a receiver (like `stripe trigger`) and checks its reply.
 * Throws SvcError: bad input (input), receiver unreachable or timed out (network).
 * @example const r = await fireHook({ url: 'http://127.0.0.1:9100/hooks', event: 'chat_accepted' }); r.verdict.ok
 */
export async function fireHook(options: FireHookOptions): Promise<FireResult> {
  const fromBody =
    options.body !== null && typeof options.body === 'object'
      ? (options.body as { event_name?: unknown }).event_name
      : undefined;
  const name = options.event ?? (typeof fromBody === 'string' ? fromBody : undefined);
  if (name === undefined) {
    throw new SvcError(
      'SVC_E_UNKNOWN_EVENT',
      'Could not fire: name an event.',
      `Events: ${HOOK_EVENTS.join(', ')}.`,
    );
  }
  const event = resolveHookEvent(name, options.events);
  const body = buildBody(event, options);
  const clock = options.clock ?? createClock();
  const text = options.reshape
    ? options.reshape(`hook.${event}`, JSON.stringify(body))
    : JSON.stringify(body);
  const outcome = await postJson({
    url: options.url,
    body: text,
    timeoutMs: options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    clock,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  recordExchange(options.journal, {
    protocolMs: clock.now(),
    iface: 'hook',
    direction: 'out',
    kind: `hook.${event}`,
    request: { method: 'POST', url: options.url, body: text },
    ...(outcome.ok
      ? { response: { status: outcome.status, headers: outcome.headers, body: outcome.body } }
      : { failure: { reason: outcome.reason, message: outcome.message } }),
    durationMs: outcome.durationMs,
    wallMs: outcome.wallMs,
  });
  if (!outcome.ok) {
    const timeout = outcome.reason === 'timeout';
    if (timeout && options.timeoutAsResult) {
      const wall = describeWallTime(options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS, clock);
      const rule = `${outcome.message}${wall}: the receiver took longer than --timeout (an assumed limit: the spec sets none)`;
      return {
        event,
        url: options.url,
        request: body,
        requestVerdict: validate(`hook.${event}`, body),
        status: 0,
        replyText: '',
        verdict: {
          kind: `hook.${event}.reply`,
          ok: false,
          errors: [issue('no_reply', rule, '8')],
          warnings: [],
        },
        latencyMs: outcome.durationMs,
        wallMs: outcome.wallMs,
        ...(typeof body.chat_id === 'number' ? { chatId: body.chat_id } : {}),
      };
    }
    // a TLS failure's message carries its own way out (tlsProblem in src/http/client.ts)
    const untrusted = outcome.reason === 'untrusted' || outcome.reason === 'tls';
    throw new SvcError(
      timeout
        ? 'SVC_E_HOOK_TIMEOUT'
        : outcome.reason === 'tls'
          ? 'SVC_E_TLS'
          : untrusted
            ? 'SVC_E_UNTRUSTED_CERT'
            : 'SVC_E_HOOK_UNREACHABLE',
      `Could not fire ${event} at ${options.url}: ${outcome.message}${timeout ? describeWallTime(options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS, clock) : ''}.`,
      timeout
        ? timeoutHint(options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS)
        : untrusted
          ? undefined
          : unreachableHint(outcome, options.url),
    );
  }
  // a receiver that routes only its path with a slash: the hook URL is used as set (spec 4.4)
  const slash = trailingSlashHint(outcome, options.url, {
    spec: '4.4',
    cite: false,
  });
  // a 404 is most often a hook URL without the receiver's route (a bare host, where an
  // Express app answers "Cannot POST /"): the URL is used as set, path and all
  const unrouted =
    outcome.status === 404
      ? `the platform posts to the hook URL as set, path and all (here ${new URL(options.url).pathname}): is that your receiver's route?`
      : undefined;
  const checked = checkReply(event, outcome.status, outcome.body, slash ?? unrouted);
  const { reply } = checked;
  const verdict = withEcho(checked.verdict, reply, body);
  const role = svcRoleOf(outcome.headers);
  return {
    event,
    url: options.url,
    request: body,
    requestVerdict: validate(`hook.${event}`, body),
    status: outcome.status,
    replyText: outcome.body,
    ...(reply === undefined ? {} : { reply }),
    verdict,
    latencyMs: outcome.durationMs,
    wallMs: outcome.wallMs,
    ...(typeof body.chat_id === 'number' ? { chatId: body.chat_id } : {}),
    ...(role && role.command !== 'hook-target' ? { answeredBy: role } : {}),
  };
}

const issue = (code: RuleCode, rule: string, spec: string): ContractIssue => ({
  path: '',
  code,
  rule,
  spec,
  severity: 'error',
});

/**
 * spec 4.4, 6.2: HTTP 200 with the event's JSON reply; call_event's reply is not shown. `hint`
 * follows a wrong status's rule (the trailing slash a receiver asked for).
 */
export function checkReply(
  event: FiredEventName,
  status: number,
  text: string,
  hint?: string,
): { verdict: ValidationResult; reply?: unknown } {
  const kind = `hook.${event}.reply`;
  const fail = (i: ContractIssue): { verdict: ValidationResult } => ({
    verdict: { kind, ok: false, errors: [i], warnings: [] },
  });
  // the public page's client events: any 2xx answer is taken (docs/FIDELITY.md)
  if (isDocsEvent(event) && (status < 200 || status > 299))
    return fail(
      issue('http_status', `HTTP ${status}; a receiver answers the event it takes with 2xx`, '6.2'),
    );
  if (!isDocsEvent(event) && status !== 200)
    return fail(
      issue(
        'http_status',
        `HTTP ${status}; expected 200 with a JSON reply${hint === undefined ? '' : `; ${hint}`}`,
        '4.4',
      ),
    );
  if (event === 'call_event' && text.trim() === '') {
    return { verdict: { kind, ok: true, errors: [], warnings: [] } }; // spec 6.2: reply not shown
  }
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    // what to answer instead: a receiver that returns nothing from a handler (a PHP library's
    // README leaves chat_finished's empty) sends an empty 200, which says nothing of the fix
    const minimal = isDocsEvent(event) ? { result: 'ok' } : minimalHookReply(event);
    const what = text.trim() === '' ? 'the reply is empty, not JSON' : 'the reply is not JSON';
    const rule =
      minimal === undefined ? what : `${what}; a minimal valid reply is ${JSON.stringify(minimal)}`;
    return fail(issue('invalid_json', rule, '6.2'));
  }
  // a missing result says what the smallest conforming reply is
  const verdict = isDocsEvent(event) ? validate(kind, reply) : validateHookReply(event, reply);
  return { verdict, reply };
}

/** A JSON value with its object keys sorted: two values compare as one text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/**
 * A reply that is the event sent back (the whole body, or one of its objects such as
 * `visitor`): a Flask receiver written for the real platform returns what it got. Its fields
 * made a dozen "not in the spec" warnings that buried the one thing to change; they are
 * replaced by a line that names the echo, beside the reply's errors.
 */
function withEcho(
  verdict: ValidationResult,
  reply: unknown,
  sent: Record<string, unknown>,
): ValidationResult {
  if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) return verdict;
  const text = canonical(reply);
  const part =
    text === canonical(sent)
      ? 'the event it got'
      : Object.entries(sent).find(
          ([, v]) => v !== null && typeof v === 'object' && canonical(v) === text,
        )?.[0];
  if (part === undefined) return verdict;
  const what = part === 'the event it got' ? part : `the event's ${part} object`;
  const echo: ContractIssue = {
    path: '',
    code: 'unknown_field',
    rule: `the receiver sent back ${what} as its reply (its fields are not reply fields); a receiver answers with a reply of spec 6.2, such as {"result":"ok"}`,
    spec: '6.2',
    severity: 'warning',
  };
  return {
    ...verdict,
    warnings: [echo, ...verdict.warnings.filter((w) => w.code !== 'unknown_field')],
  };
}

/**
 * The error for a reply another of svc-cli's serving roles gave (its `x-svc-role` header):
 * listen answers 200 to any POST, so a conforming reply from it tested no hook receiver.
 * @example notAHookTarget(result)?.code // 'SVC_E_NOT_A_HOOK_TARGET' when listen answered
 */
export function notAHookTarget(result: FireResult): SvcError | undefined {
  const role = result.answeredBy;
  if (role === undefined) return undefined;
  return new SvcError(
    'SVC_E_NOT_A_HOOK_TARGET',
    `Could not fire ${result.event}: ${new URL(result.url).host} is svc-cli ${role.command} (${role.plays}), not a hook receiver (spec 4.4).`,
    'Give --url your hook receiver, or the URL `svc-cli hook-target` prints.',
  );
}

/**
 * Fires every event in lifecycle order (spec 3), all about one chat: `chatId`, or a fresh one
 * (a lifecycle run twice is two chats, not a finished chat starting again); chat_assigned
 * carries the crm_link the chat_accepted reply gave; with `events: 'docs'` the public page's
 * client events follow. `onResult` sees each result as it arrives.
 * @example await fireAllHooks({ url }, (r) => render(r));
 */
export async function fireAllHooks(
  options: Omit<FireHookOptions, 'event' | 'body'>,
  onResult?: (result: FireResult) => void,
): Promise<FireResult[]> {
  const results: FireResult[] = [];
  let assignTo: string | undefined;
  const { chatId = pickFreshChatId(), ...rest } = options;
  for (const event of HOOK_LIFECYCLE) {
    const chat = carriesChatId(event) ? { chatId } : {};
    const result = await fireHook({
      ...rest,
      event,
      ...chat,
      ...(assignTo ? { assignTo } : {}),
      timeoutAsResult: true,
    });
    const link = (result.reply as { crm_link?: unknown } | undefined)?.crm_link;
    if (event === 'chat_accepted' && typeof link === 'string') assignTo = link;
    results.push(result);
    onResult?.(result);
  }
  // --profile docs: the public page's client events last, as conform hooks sends them
  for (const event of options.events === 'docs' ? DOCS_HOOK_EVENTS : []) {
    const result = await fireHook({ ...rest, event, timeoutAsResult: true });
    results.push(result);
    onResult?.(result);
  }
  return results;
}

/** The port a URL names (or its scheme's default), for the hint that starts a receiver there. */
function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

/**
 * What to do about a hook timeout. `--timeout 5` is 5 ms, as a bare number is ms: a limit that
 * short was most likely meant in seconds, so say how to write that.
 */
function timeoutHint(timeoutMs: number): string {
  const base =
    'The receiver took longer than --timeout (default 10 s, an assumption: spec 8 is silent).';
  if (timeoutMs >= 100) return base;
  return `${base} --timeout ${timeoutMs} is ${timeoutMs} ms, as a bare number is ms: --timeout ${timeoutMs}s waits ${timeoutMs} s.`;
}
