import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClock, type Clock } from '../../clock.js';
import {
  DEFAULT_BODY_LIMIT,
  errorBody,
  flatHeaders,
  readJsonBody,
  sendJson,
  transferModeOf,
} from '../../http/body.js';
import {
  listenAt,
  decodeSegment,
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
import type { ExchangeInput, Journal } from '../../journal/index.js';
import { checkKind, detectChannelKind } from './contract-check.js';
import type {
  AgentMessageEvent,
  ListenerEvent,
  ListeningEvent,
  RejectedRequestEvent,
} from './events.js';
import { kindOfChannelMessage, messageOf } from './kinds.js';
import { toRecordedVerdict, unknownKindVerdict } from './verdict.js';
import { errorText } from '../../errors.js';

export interface ListenerOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** default 0: the OS picks a port (the `listening` URL tells it) */
  port?: number;
  /** serve only this channel public id; any single path segment otherwise */
  channel?: string;
  /** faults to inject into the replies */
  plan?: FaultPlan;
  clock?: Clock;
  journal?: Journal;
  /** request body limit in bytes (default 1 MiB; 413 beyond) */
  bodyLimit?: number;
  /** contract warnings count as errors */
  strict?: boolean;
  limits?: ServerLimits;
  onEvent?: (event: ListenerEvent) => void;
}

export interface Listener {
  readonly url: string;
  readonly listening: ListeningEvent;
  readonly server: RunningServer;
  close(graceMs?: number): Promise<void>;
}

/** spec 2.2: the integrator's reply to a received agent message. */
const OK_REPLY = { result: 'ok' } as const;

/**
 * Starts the integrator's agent-message endpoint (spec 4.2): `POST /<channel_public_id>`,
 * validating each message and replying `{"result":"ok"}`, or as the fault plan says.
 * @example const l = await createListener({ plan: { failFirst: 2 }, onEvent: console.log }); // give l.url to the platform
 */
export async function createListener(options: ListenerOptions = {}): Promise<Listener> {
  const clock = options.clock ?? createClock();
  const injector = createFaultInjector(options.plan ?? {});
  const emit = (event: ListenerEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // a renderer's failure must not take the endpoint down
    }
  };
  const context: HandlerContext = { options, clock, injector, emit };
  const server = await startServer({
    handler: (req, res) => handleRequest(context, req, res),
    ...listenAt(options),
    onHandlerError: (error) =>
      emit({
        type: 'listener-error',
        message: errorText(error),
      }),
  });
  const listening: ListeningEvent = {
    type: 'listening',
    url: server.url,
    ...(options.channel === undefined ? {} : { channel: options.channel }),
  };
  return { url: server.url, listening, server, close: (graceMs) => server.close(graceMs) };
}

interface HandlerContext {
  options: ListenerOptions;
  clock: Clock;
  injector: ReturnType<typeof createFaultInjector>;
  emit: (event: ListenerEvent) => void;
}

async function handleRequest(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { options, clock } = ctx;
  const arrivedAt = clock.now();
  const wallStart = clock.wallNow();
  const method = req.method ?? 'GET';
  const path = requestPathOf(req.url).path;
  const segments = path.split('/').filter((s) => s !== '');
  // spec 4.2: POST {integrator_url}/<channel_public_id>; the integrator URL may carry a path
  // of its own (http://host:9000/agent-messages), so the channel id is the last segment.
  const last = segments.at(-1);
  const channel = last === undefined ? undefined : decodeSegment(last);
  const reject = (
    status: RejectedRequestEvent['status'],
    code: string,
    message: string,
    raw?: string,
  ): void => {
    sendJson(res, status, errorBody(code, message), status === 405 ? { allow: 'POST' } : {});
    const event: RejectedRequestEvent = {
      type: 'rejected-request',
      method,
      path,
      status,
      code,
      message,
      transfer: transferModeOf(req),
      protocolMs: arrivedAt,
    };
    record(ctx, req, path, arrivedAt, wallStart, {
      response: { status, body: JSON.stringify(errorBody(code, message)) },
      ...(raw === undefined ? {} : { requestBody: raw }),
      notes: [code],
    });
    ctx.emit(event);
  };

  // spec 4.2: POST {integrator_url}/<channel_public_id>
  if (channel === undefined || (options.channel !== undefined && channel !== options.channel)) {
    req.resume();
    const expected = options.channel === undefined ? '<channel_public_id>' : options.channel;
    reject(
      404,
      'not_found',
      `no agent-message endpoint at ${path}; expected POST /${expected} (spec 4.2)`,
    );
    return;
  }
  if (method !== 'POST') {
    req.resume();
    reject(
      405,
      'method_not_allowed',
      `${method} is not served; agent messages come by POST (spec 4.2)`,
    );
    return;
  }
  const body = await readJsonBody(req, { limit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
  if (!body.ok) {
    reject(body.status, body.code, body.message, body.raw);
    return;
  }

  const verdict = verdictOf(body.json, options.strict ?? false);
  const decision = ctx.injector.decide(messageKeyOf(body.json, body.raw));
  const applied = await applyFault(
    decision.fault,
    { req, res, clock, normal: { status: 200, body: OK_REPLY } },
    decision.delayMs,
  );
  const reply: AgentMessageEvent['reply'] = applied.noReply
    ? { noReply: applied.noReply }
    : { status: applied.status ?? 0 };
  const id = messageOf(body.json)?.id;
  const fault = describeFault(decision.fault);
  const event: AgentMessageEvent = {
    type: 'agent-message',
    request: decision.requestNumber,
    attempt: decision.attempt,
    channel,
    kind: verdict.kind,
    ...(typeof id === 'string' || typeof id === 'number' ? { messageId: String(id) } : {}),
    transfer: body.transfer,
    bytes: body.bytes,
    verdict: { ok: verdict.ok, errors: verdict.errors, warnings: verdict.warnings },
    fault,
    delayMs: decision.delayMs,
    reply,
    protocolMs: arrivedAt,
    durationMs: clock.now() - arrivedAt,
  };
  record(ctx, req, path, arrivedAt, wallStart, {
    kind: verdict.kind,
    attempt: decision.attempt,
    requestBody: body.raw,
    ...(applied.noReply
      ? { failure: { reason: applied.noReply, message: `no reply: ${applied.noReply} (injected)` } }
      : { response: { status: applied.status ?? 0, body: applied.body ?? '' } }),
    verdict: toRecordedVerdict(verdict),
    fault,
    notes: [`transfer: ${body.transfer}`],
  });
  ctx.emit(event);
}

/** spec 2.2-2.4: an agent message of a known type; anything else is a contract violation. */
function verdictOf(json: unknown, strict: boolean): ReturnType<typeof checkKind> {
  const detected = detectChannelKind(json);
  const kind = detected?.startsWith('channel.agent.')
    ? detected
    : kindOfChannelMessage('agent', json);
  if (kind === undefined) {
    return unknownKindVerdict(
      'unknown',
      '2.2',
      'must be an agent message: text, typein/typeout or a media type (spec 2.2-2.4)',
    );
  }
  return checkKind(kind, json, strict ? { strict } : {});
}

interface RecordExtras {
  kind?: string;
  attempt?: number;
  requestBody?: string;
  response?: { status: number; body: string };
  failure?: { reason: string; message: string };
  verdict?: NonNullable<ExchangeInput['verdict']>;
  fault?: string;
  notes?: string[];
}

function record(
  ctx: HandlerContext,
  req: IncomingMessage,
  path: string,
  arrivedAt: number,
  wallStart: number,
  extras: RecordExtras,
): void {
  const journal = ctx.options.journal;
  if (!journal) return;
  const { requestBody, ...rest } = extras;
  const headers = flatHeaders(req);
  journal.record({
    protocolMs: arrivedAt,
    iface: 'channel',
    direction: 'in',
    request: {
      method: req.method ?? 'GET',
      url: `http://${req.headers.host ?? 'localhost'}${path}`,
      headers,
      ...(requestBody === undefined ? {} : { body: requestBody }),
    },
    durationMs: ctx.clock.now() - arrivedAt,
    wallMs: ctx.clock.wallNow() - wallStart,
    ...rest,
  });
}
