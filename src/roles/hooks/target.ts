import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClock, type Clock } from '../../clock.js';
import { HOOK_EVENTS, type HookEventName } from '../../contract/hooks.js';
import { validate } from '../../contract/index.js';
import type { ValidationResult } from '../../contract/types.js';
import {
  DEFAULT_BODY_LIMIT,
  errorBody,
  flatHeaders,
  readJsonBody,
  sendJson,
} from '../../http/body.js';
import {
  listenAt,
  requestPathOf,
  startServer,
  type RunningServer,
  type ServerLimits,
} from '../../http/server.js';
import {
  applyFault,
  createFaultInjector,
  describeFault,
  messageKeyOf,
  type FaultPlan,
} from '../../faults/index.js';
import type { Journal } from '../../journal/index.js';
import { defaultHookReply } from './samples.js';
import { errorText } from '../../errors.js';

export interface HookTargetOptions {
  host?: string;
  /** default 0: the OS picks (the `listening` event tells the URL) */
  port?: number;
  /** serve only this path (default: any path) */
  path?: string;
  /** replies by event, replacing the defaults (`--reply chat_accepted=crm.json`) */
  replies?: Partial<Record<HookEventName, unknown>>;
  plan?: FaultPlan;
  clock?: Clock;
  journal?: Journal;
  bodyLimit?: number;
  limits?: ServerLimits;
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
  | {
      type: 'rejected-request';
      method: string;
      path: string;
      status: number;
      code: string;
      message: string;
      protocolMs: number;
    }
  | { type: 'target-error'; message: string };

export interface HookTarget {
  readonly url: string;
  readonly listening: HookTargetListening;
  readonly server: RunningServer;
  close(graceMs?: number): Promise<void>;
}

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
  const injector = createFaultInjector(options.plan ?? {});
  const emit = (event: HookTargetEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // a renderer's failure must not take the receiver down
    }
  };
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const arrivedAt = clock.now();
    const wallStart = clock.wallNow();
    const method = req.method ?? 'GET';
    const path = requestPathOf(req.url).path;
    const url = `http://${req.headers.host ?? 'localhost'}${path}`;
    const reject = (status: number, code: string, message: string, raw?: string): void => {
      req.resume();
      sendJson(res, status, errorBody(code, message), status === 405 ? { allow: 'POST' } : {});
      options.journal?.record({
        protocolMs: arrivedAt,
        iface: 'hook',
        direction: 'in',
        request: {
          method,
          url,
          headers: flatHeaders(req),
          ...(raw === undefined ? {} : { body: raw }),
        },
        response: { status, body: JSON.stringify(errorBody(code, message)) },
        durationMs: clock.now() - arrivedAt,
        wallMs: clock.wallNow() - wallStart,
        notes: [code],
      });
      emit({
        type: 'rejected-request',
        method,
        path,
        status,
        code,
        message,
        protocolMs: arrivedAt,
      });
    };
    if (options.path !== undefined && path !== options.path) {
      return reject(404, 'not_found', `no hook endpoint at ${path}; POST ${options.path}`);
    }
    if (method !== 'POST')
      return reject(405, 'method_not_allowed', 'hooks come by POST (spec 4.4)');
    const body = await readJsonBody(req, { limit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
    if (!body.ok) return reject(body.status, body.code, body.message, body.raw);
    const json = body.json as { event_name?: unknown; chat_id?: unknown } | null;
    const event = hookEventOf(json?.event_name);
    const verdict: Pick<ValidationResult, 'ok' | 'errors' | 'warnings'> = event
      ? validate(`hook.${event}`, json)
      : {
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
        };
    const normalBody = event
      ? (options.replies?.[event] ?? defaultHookReply(event, json))
      : { result: 'FAILURE' };
    const decision = injector.decide(messageKeyOf(json, body.raw));
    const applied = await applyFault(
      decision.fault,
      { req, res, clock, normal: { status: 200, body: normalBody } },
      decision.delayMs,
    );
    const reply = applied.noReply
      ? { noReply: applied.noReply }
      : {
          status: applied.status ?? 0,
          ...(applied.body === undefined ? {} : { body: parseOr(applied.body) }),
        };
    const chatId = typeof json?.chat_id === 'number' ? json.chat_id : undefined;
    const fault = describeFault(decision.fault);
    options.journal?.record({
      protocolMs: arrivedAt,
      iface: 'hook',
      direction: 'in',
      kind: event ? `hook.${event}` : 'unknown',
      attempt: decision.attempt,
      request: { method, url, headers: flatHeaders(req), body: body.raw },
      ...(applied.noReply
        ? {
            failure: {
              reason: applied.noReply,
              message: `no reply: ${applied.noReply} (injected)`,
            },
          }
        : { response: { status: applied.status ?? 0, body: applied.body ?? '' } }),
      durationMs: clock.now() - arrivedAt,
      wallMs: clock.wallNow() - wallStart,
      verdict: {
        ok: verdict.ok,
        errors: verdict.errors.map((i) => `${i.path || '(root)'}: ${i.rule} (spec ${i.spec})`),
        warnings: verdict.warnings.map((i) => `${i.path || '(root)'}: ${i.rule} (spec ${i.spec})`),
      },
      fault,
    });
    emit({
      type: 'hook-received',
      request: decision.requestNumber,
      attempt: decision.attempt,
      path,
      eventName: typeof json?.event_name === 'string' ? json.event_name : '',
      kind: event ? `hook.${event}` : 'unknown',
      ...(chatId === undefined ? {} : { chatId }),
      verdict: { ok: verdict.ok, errors: verdict.errors, warnings: verdict.warnings },
      reply,
      fault,
      delayMs: decision.delayMs,
      protocolMs: arrivedAt,
      durationMs: clock.now() - arrivedAt,
    });
  };
  const server = await startServer({
    handler,
    ...listenAt(options),
    onHandlerError: (error) =>
      emit({
        type: 'target-error',
        message: errorText(error),
      }),
  });
  const listening: HookTargetListening = {
    type: 'listening',
    url: server.url,
    ...(options.path === undefined ? {} : { path: options.path }),
  };
  return { url: server.url, listening, server, close: (graceMs) => server.close(graceMs) };
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
