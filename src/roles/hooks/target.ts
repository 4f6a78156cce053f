import { createClock } from '../../clock.js';
import { DOCS_HOOK_EVENTS, HOOK_EVENTS, type HookEventName } from '../../contract/hooks.js';
import { validate } from '../../contract/validate.js';
import type { ContractIssue, ValidationResult } from '../../contract/types.js';
import { serveExchanges } from '../../http/exchange.js';
import type { RequestRejectedEvent } from '../../wire-errors.js';
import { messageKeyOf } from '../../faults/index.js';
import { defaultHookReply } from './samples.js';
import {
  createInboundHandler,
  type InboundOutcome,
  type InboundRequest,
  type Refusal,
  type RoleAnswer,
  type RoleServerOptions,
  type ServingRole,
} from '../inbound.js';
import { errorText } from '../../errors.js';

export interface HookTargetOptions extends RoleServerOptions {
  /** serve only this path (default: any path) */
  path?: string;
  /** replies by event, replacing the defaults (`--reply chat_accepted=crm.json`) */
  replies?: Partial<Record<HookEventName, unknown>>;
  onEvent?: (event: HookTargetEvent) => void;
}

/** The receiver is bound: give `url` to the platform as the hook URL (spec 4.4). */
export interface HookTargetListening {
  type: 'listening';
  url: string;
  path?: string;
}

export type HookTargetEvent =
  | {
      type: 'hook-received';
      /** arrival number, 1-based */
      request: number;
      /** attempt of the same body (the platform may redeliver) */
      attempt: number;
      path: string;
      /** event_name as received (`offline_messages` kept as is) */
      eventName: string;
      /** the contract kind it was checked as, `unknown` when event_name names none */
      kind: string;
      chatId?: number;
      verdict: Pick<ValidationResult, 'ok' | 'errors' | 'warnings'>;
      reply: { status: number; body?: unknown } | { noReply: 'reset' | 'hang' };
      fault: string;
      delayMs: number;
      protocolMs: number;
      durationMs: number;
    }
  | RequestRejectedEvent
  | { type: 'target-error'; message: string };

export type HookTarget = ServingRole<HookTargetListening>;

type HookBody = { event_name?: unknown; chat_id?: unknown } | null;
type HookVerdict = Pick<ValidationResult, 'ok' | 'errors' | 'warnings'>;

/** The contract event of an event_name; both spellings of the offline event (spec 6.2). */
export function hookEventOf(name: unknown): HookEventName | undefined {
  if (name === 'offline_messages') return 'offline_message';
  return typeof name === 'string' && (HOOK_EVENTS as readonly string[]).includes(name)
    ? (name as HookEventName)
    : undefined;
}

/**
 * The hook receiver (a CRM's endpoint, spec 4.4): validates every event against
 * `hook.<event>` and replies with a valid default per event, a scripted reply, or a fault.
 * @example const t = await createHookTarget({ onEvent: (e) => log(e) }); // give t.url to --hook-url
 */
export async function createHookTarget(options: HookTargetOptions = {}): Promise<HookTarget> {
  const clock = options.clock ?? createClock();
  const emit = (event: HookTargetEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // a renderer's failure must not take the receiver down
    }
  };
  /** what each admitted body was judged as (the pipeline reports it back in onAnswered) */
  const judged = new WeakMap<
    RoleAnswer,
    { json: HookBody; event: HookEventName | undefined; verdict: HookVerdict }
  >();
  const handler = createInboundHandler({
    iface: 'hook',
    clock,
    journal: options.journal,
    plan: options.plan,
    bodyLimit: options.bodyLimit,
    observe: options.observe,
    admit: (request) => admitHook(request, options.path),
    kindOf: (json) => judgeHook(json as HookBody).kind,
    answer(body) {
      const json = body.json as HookBody;
      const { event, kind, verdict } = judgeHook(json);
      const answer: RoleAnswer = {
        kind: kind ?? 'unknown',
        verdict: {
          ok: verdict.ok,
          errors: verdict.errors.map(issueLine),
          warnings: verdict.warnings.map(issueLine),
        },
        normal: {
          status: 200,
          body: event
            ? (options.replies?.[event] ?? defaultHookReply(event, json))
            : // the public docs' client events: {"result":"ok"}, as the page's sample answers
              { result: kind ? 'ok' : 'FAILURE' },
        },
        key: messageKeyOf(json, body.raw),
      };
      judged.set(answer, { json, event, verdict });
      return answer;
    },
    // the hook target's event names no transfer mode
    onRejected: ({ transfer: _transfer, ...event }) => emit(event),
    onAnswered(outcome) {
      const seen = judged.get(outcome.answer);
      emit(receivedEvent(outcome, seen?.json, seen?.verdict));
    },
  });
  const serving = await serveExchanges('hooks', handler, options, (error) =>
    emit({ type: 'target-error', message: errorText(error) }),
  );
  const listening: HookTargetListening = {
    type: 'listening',
    url: serving.url,
    ...(options.path === undefined ? {} : { path: options.path }),
  };
  return { ...serving, listening };
}

/** Which requests are hooks: POST (spec 4.4), to `--path` when one is given. */
function admitHook(
  { method, path }: InboundRequest,
  expectedPath: string | undefined,
): Refusal | undefined {
  if (expectedPath !== undefined && path !== expectedPath) {
    return {
      status: 404,
      code: 'not_found',
      message: `no hook endpoint at ${path}; POST ${expectedPath}`,
    };
  }
  if (method !== 'POST') {
    return {
      status: 405,
      code: 'method_not_allowed',
      message: 'hooks come by POST (spec 4.4)',
      headers: { allow: 'POST' },
    };
  }
  return undefined;
}

/** spec 6.2: a body is judged as its event's kind; an event_name that names none fails. */
function judgeHook(json: HookBody): {
  event: HookEventName | undefined;
  kind?: string;
  verdict: HookVerdict;
} {
  const event = hookEventOf(json?.event_name);
  if (event) return { event, kind: `hook.${event}`, verdict: validate(`hook.${event}`, json) };
  // the public Webhooks page's client events (docs profile): known kinds, no scripted reply
  const name = json?.event_name;
  if ((DOCS_HOOK_EVENTS as readonly unknown[]).includes(name)) {
    const kind = `hook.${String(name)}`;
    return { event, kind, verdict: validate(kind, json) };
  }
  return {
    event,
    verdict: {
      ok: false,
      errors: [
        {
          path: 'event_name',
          code: 'unknown_event',
          rule: `must name a hook event: ${HOOK_EVENTS.join(', ')} or offline_messages`,
          spec: '6.2',
          severity: 'error',
        },
      ],
      warnings: [],
    },
  };
}

/** An issue as the journal's verdict lines show it. */
const issueLine = (i: ContractIssue): string => `${i.path || '(root)'}: ${i.rule} (spec ${i.spec})`;

/** What the receiver reports of one answered hook: the body's verdict and the reply it got. */
function receivedEvent(
  outcome: InboundOutcome,
  json: HookBody | undefined,
  verdict: HookVerdict | undefined,
): HookTargetEvent {
  const chatId = typeof json?.chat_id === 'number' ? json.chat_id : undefined;
  const { applied } = outcome;
  return {
    type: 'hook-received',
    request: outcome.decision.requestNumber,
    attempt: outcome.decision.attempt,
    path: outcome.path,
    eventName: typeof json?.event_name === 'string' ? json.event_name : '',
    kind: outcome.answer.kind,
    ...(chatId === undefined ? {} : { chatId }),
    verdict: verdict ?? { ok: false, errors: [], warnings: [] },
    reply: applied.noReply
      ? { noReply: applied.noReply }
      : {
          status: applied.status ?? 0,
          ...(applied.body === undefined ? {} : { body: parseOr(applied.body) }),
        },
    fault: outcome.fault,
    delayMs: outcome.decision.delayMs,
    protocolMs: outcome.protocolMs,
    durationMs: outcome.durationMs,
  };
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
