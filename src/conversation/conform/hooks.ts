import type { Clock } from '../../clock.js';
import { formatIssue } from '../../contract/issues.js';
import { SvcError } from '../../errors.js';
import { HOOK_DELIVERY_POLICY } from '../../contract/timing.js';
import { DOCS_HOOK_EVENTS, type DocsHookEventName } from '../../contract/hooks.js';
import { validate } from '../../contract/validate.js';
import { postJson } from '../../http/client.js';
import { describeErrorPage } from '../../http/error-page.js';
import { fireHook, type FireResult } from '../../roles/hooks/fire.js';
import {
  buildSampleDocsHookEvent,
  HOOK_LIFECYCLE,
  pickFreshChatId,
} from '../../roles/hooks/samples.js';
import { describeWallTime } from '../../clock.js';
import type { ConformCase } from './case.js';
import { shapeSent, type PayloadForms } from '../../platform/payload-forms.js';

/**
 * `conform hooks`: we play the platform against someone's hook receiver (spec 4.4, 6.2):
 * every event, built with the one set of hook builders, both offline names; each reply
 * checked against `hook.<event>.reply` and answered within the assumed 10 s.
 */
export interface HooksSuiteOptions {
  url: string;
  clock: Clock;
  /** protocol ms a reply may take (default 10 s: an assumption, spec 8 is silent) */
  timeoutMs?: number;
  /** a profile's payload forms (`--profile`): events sent in them */
  forms?: PayloadForms;
  /** `docs` (`--profile docs`): the public Webhooks page's client events too */
  events?: 'spec' | 'docs';
  /** the chat every event is about (default a fresh one per suite: one chat's lifecycle) */
  chatId?: number;
  /**
   * only these events' cases (`--events`; default every one): a receiver for an account
   * without calls never gets call_event. offline_message takes its other spelling along.
   */
  only?: readonly string[];
}

/** Whether `--events` keeps the case of event `name` (spec 6.2 note: two offline spellings). */
function kept(options: HooksSuiteOptions, name: string): boolean {
  const only = options.only;
  if (only === undefined) return true;
  return only.includes(name) || (name === 'offline_messages' && only.includes('offline_message'));
}

/** The cases of `conform hooks`, in lifecycle order (spec 3); offline_messages last. */
export function buildHooksCases(options: HooksSuiteOptions): ConformCase[] {
  const docs =
    options.events === 'docs'
      ? DOCS_HOOK_EVENTS.filter((e) => kept(options, e)).map((e) => docsCase(options, e))
      : [];
  return [...specCases(options), ...docs];
}

/**
 * A client event of the public Webhooks page (docs profile): delivered, answered 2xx within
 * the timeout; its answer is any object (`{"result":"ok"}` in the page's sample).
 */
function docsCase(options: HooksSuiteOptions, name: DocsHookEventName): ConformCase {
  const timeoutMs = options.timeoutMs ?? HOOK_DELIVERY_POLICY.attemptTimeoutMs;
  return {
    name: `${name} (public Webhooks page, --profile docs)`,
    spec: ['4.4', '6.2'],
    async run(ctx) {
      await ctx.check(`a 2xx JSON answer within ${timeoutMs} ms`, async () => {
        const body = buildSampleDocsHookEvent(name);
        const outcome = await postJson({
          url: options.url,
          body: shapeSent(
            { forms: options.forms, clock: options.clock },
            `hook.${name}`,
            JSON.stringify(body),
          ),
          timeoutMs,
          clock: options.clock,
        });
        if (!outcome.ok)
          return [
            `reply: ${outcome.reason === 'timeout' ? `no complete reply within ${timeoutMs} ms${describeWallTime(timeoutMs, options.clock)}` : outcome.message}`,
          ];
        if (outcome.status < 200 || outcome.status > 299)
          return [
            `reply: HTTP ${outcome.status}; a receiver answers the event it takes with 2xx`,
            ...serverErrorHint(outcome.status, `${name} --profile docs`, options.url),
          ];
        const verdict = validate(`hook.${name}.reply`, parseReply(outcome.body));
        return verdict.ok ? [] : verdict.errors.map((issue) => `reply: ${formatIssue(issue)}`);
      });
    },
  };
}

/** A reply body as JSON, or the text itself (validated as what it is). */
function parseReply(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The spec's events, in lifecycle order (spec 3); offline_messages last. */
function specCases(options: HooksSuiteOptions): ConformCase[] {
  const timeoutMs = options.timeoutMs ?? HOOK_DELIVERY_POLICY.attemptTimeoutMs;
  let assignTo: string | undefined;
  const chatId = options.chatId ?? pickFreshChatId();
  // spec 6.2 asks receivers to take both spellings; none found in public code takes
  // offline_messages, so refusing it after accepting offline_message is a warning, not a fail
  let offlineAccepted = false;
  // the events whose reply conformed so far: a receiver that took them and fails another with
  // a non-2xx most often has no handler for that event_name (a PHP library that knows five
  // events throws on call_event, and php -S answers 500 with an empty body)
  const taken: string[] = [];
  const names = [...HOOK_LIFECYCLE, 'offline_messages' as const].filter((n) => kept(options, n));
  return names.map((name) => ({
    name: name === 'offline_messages' ? 'offline_messages (the field table spelling)' : name,
    spec: name.startsWith('offline') ? ['4.4', '6.2 note'] : ['4.4', '6.2'],
    async run(ctx) {
      let result: FireResult | undefined;
      await ctx.check(`reply within ${timeoutMs} ms (assumed; spec 8 is silent)`, async () => {
        try {
          result = await fireHook({
            url: options.url,
            event: name,
            ...(name === 'offline_messages' ? { offlineName: 'offline_messages' as const } : {}),
            ...(name === 'chat_assigned' && assignTo ? { assignTo } : {}),
            ...(name.startsWith('offline') ? {} : { chatId }),
            timeoutMs,
            clock: options.clock,
            ...(options.forms
              ? {
                  reshape: (kind: string, text: string) =>
                    shapeSent({ forms: options.forms, clock: options.clock }, kind, text),
                }
              : {}),
          });
        } catch (error) {
          if (error instanceof SvcError && error.code === 'SVC_E_HOOK_TIMEOUT')
            return [
              `reply time: no complete reply within ${timeoutMs} ms${describeWallTime(timeoutMs, options.clock)} (the assumed hook timeout; spec 6.2, 8 are silent)`,
            ];
          throw error;
        }
        return [];
      });
      if (!result) {
        ctx.skip(`reply matches hook.${name}.reply`, 'no reply to check');
        return;
      }
      const fired = result;
      const link = (fired.reply as { crm_link?: unknown } | undefined)?.crm_link;
      if (name === 'chat_accepted' && typeof link === 'string') assignTo = link;
      await ctx.check(`reply matches hook.${fired.event}.reply`, () => {
        const problems = fired.verdict.errors.map((issue) => `reply: ${formatIssue(issue)}`);
        if (name === 'offline_message' && problems.length === 0) offlineAccepted = true;
        // what hook-fire prints too: the reply as it came, so a failure can be read here
        const answered = `the receiver answered HTTP ${fired.status} ${quoteReply(fired.replyText)}`;
        if (name === 'offline_messages' && offlineAccepted && problems.length > 0) {
          return {
            warn: `${problems.join('; ')}; ${answered}; the receiver takes offline_message but not this spelling (the spec 6.2 note asks for both)`,
          };
        }
        // a reply that is the event sent back says so (hook-fire's warning), beside the errors
        const echo = fired.verdict.warnings
          .filter((w) => w.path === '' && w.code === 'unknown_field')
          .map((w) => `reply: ${formatIssue(w)}`);
        if (problems.length > 0) {
          const unhandled = unhandledHint(name, fired.status, taken);
          const again = name.startsWith('offline') ? name : `${name} --chat-id ${chatId}`;
          return [
            ...problems,
            ...echo,
            answered,
            ...(unhandled.length > 0
              ? unhandled
              : serverErrorHint(fired.status, again, options.url)),
          ];
        }
        taken.push(name);
        const warnings = fired.verdict.warnings.map((issue) => `reply: ${formatIssue(issue)}`);
        return warnings.length > 0 ? { warn: warnings.join('; ') } : [];
      });
    },
  }));
}

/**
 * Why one event fails where earlier ones passed: the receiver likely has no handler for its
 * name. What to do: answer an event it does not act on with 200; call_event can be left out.
 */
function unhandledHint(name: string, status: number, taken: readonly string[]): string[] {
  if (taken.length === 0 || (status >= 200 && status <= 299)) return [];
  const others =
    taken.length <= 2 ? taken.join(' and ') : `${taken.slice(0, 2).join(', ')} and others`;
  const leave =
    name === 'call_event'
      ? '; an account without calls never gets it: --events leaves it out of the suite'
      : '';
  return [
    `the same receiver took ${others}: does it handle event_name "${name}"? A receiver answers an event it does not act on with 200 {"result":"ok"} (spec 6.2 lists ${name})${leave}`,
  ];
}

/**
 * What a 5xx says and where to look: the receiver failed while it handled the event (an
 * exception, a crash), it did not refuse it, so its own log holds the cause; hook-fire sends
 * the same event again and prints the request beside the 5xx. `fire` is hook-fire's event
 * and flags.
 */
function serverErrorHint(status: number, fire: string, url: string): string[] {
  if (status < 500 || status > 599) return [];
  return [
    `HTTP ${status}: the receiver failed while it handled the event, it did not refuse it; check its log for the error, and for a handler that expects a field this event lacks. To send it again and see the request: svc-cli hook-fire ${fire} --url ${url}`,
  ];
}

/**
 * A reply body for a message line: empty said so, an error page by its title, JSON on one line,
 * a long one cut. A receiver in a debug mode (Flask's) pretty-prints its JSON: quoted as it
 * came, its lines broke the report's layout, each at the left margin as if it were output of
 * its own.
 */
function quoteReply(text: string): string {
  if (text === '') return '(empty body)';
  const page = describeErrorPage(text);
  if (page !== undefined) return page;
  const flat = oneLine(text);
  const chars = [...flat];
  return chars.length <= 200
    ? flat
    : `${chars.slice(0, 200).join('')}… (${chars.length} characters)`;
}

/** JSON re-serialised compactly (the same value), other text with its line breaks as spaces. */
function oneLine(text: string): string {
  if (!/[\r\n]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\s*[\r\n]\s*/g, ' ').trim();
  }
}
