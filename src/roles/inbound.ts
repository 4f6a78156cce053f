/**
 * The ONE inbound pipeline of the serving roles: read the body within the limit,
 * refuse what the role does not serve, apply the fault plan to the role's normal answer,
 * write the reply and journal the exchange. A role says only what is its own: which requests
 * it admits, how it judges a body and what it would answer; it hears one request-rejected
 * event for every request it refused (made here, `rejectedEvent`) and its answered bodies.
 */
import type { Clock } from '../clock.js';
import {
  answerOnWire,
  createFaultInjector,
  describeFault,
  faultStep,
  waitOnWire,
  type FaultDecision,
  type FaultPlan,
} from '../faults/index.js';
import type { AppliedReply } from '../faults/reply.js';
import { applyNone } from '../faults/none.js';
import { DEFAULT_BODY_LIMIT, errorBody, type TransferMode } from '../http/body.js';
import {
  after,
  bodyStep,
  compose,
  type Middleware,
  type PipelineContext,
} from '../http/pipeline.js';
import type { InboundExchange, Serving, Transport } from '../http/exchange.js';
import type { ServerLimits } from '../http/server.js';
import type { TlsServerOptions } from '../http/tls.js';
import { journalStep, type ExchangeInput, type Journal } from '../journal/index.js';
import type { RequestRejectedEvent, WireErrorCode } from '../wire-errors.js';

/** A request the role refuses before reading it as its own (404, 405, 401 ...). */
export interface Refusal {
  status: number;
  code: WireErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/** A body as read within the limit. */
export interface InboundBody {
  json: unknown;
  raw: string;
  transfer: TransferMode;
  bytes: number;
}

/** What the role makes of a body: its kind and verdict, and the answer it would give. */
export interface RoleAnswer {
  kind: string;
  verdict: NonNullable<ExchangeInput['verdict']>;
  /** the reply without faults */
  normal: { status: number; body: unknown; headers?: Record<string, string> };
  /** what redeliveries share (the fault plan counts attempts per key) */
  key: string;
  notes?: string[];
  /**
   * the role refuses this body as it is (a malformed event gets its 400): the fault plan
   * neither applies nor counts an attempt (faults act on valid requests only), and the
   * request is reported as rejected with this code and message
   */
  refused?: { code: WireErrorCode; message: string };
}

/** What happened to an admitted request: the role turns it into its own event. */
export interface InboundOutcome {
  method: string;
  path: string;
  body: InboundBody;
  answer: RoleAnswer;
  decision: FaultDecision;
  applied: AppliedReply;
  fault: string;
  protocolMs: number;
  durationMs: number;
}

/**
 * The one request-rejected event of a role (spec 7): a request refused before its body, a body
 * that could not be read, or one the role refuses as it is; `transfer` is how its body came.
 */
export interface InboundRejection extends RequestRejectedEvent {
  transfer: TransferMode;
}

/** What a role sees of a request before its body. */
export type InboundRequest = Pick<InboundExchange, 'method' | 'path' | 'headers'>;

export interface InboundRole {
  iface: ExchangeInput['iface'];
  clock: Clock;
  journal?: Journal | undefined;
  plan?: FaultPlan | undefined;
  bodyLimit?: number | undefined;
  /** undefined: the request is the role's; else why not */
  admit(request: InboundRequest): Refusal | undefined;
  /** judges an admitted body */
  answer(body: InboundBody, request: InboundRequest): RoleAnswer;
  /**
   * the contract kind of a body the role refused before judging it (a wrong path, token or
   * method), for its record: the platform sent that payload and saw the refusal, so a
   * recording read as the platform saw it (src/journal/platform-view.ts) needs its kind
   */
  kindOf?: ((json: unknown) => string | undefined) | undefined;
  /** hears every request the role rejected, as one event built here */
  onRejected(event: InboundRejection): void;
  /** hears every body the role answered as its own */
  onAnswered(outcome: InboundOutcome): void;
  /** the path as the rejected event shows it (bot-sim hides its token) */
  shownPath?: ((path: string) => string) | undefined;
  /** hears every answered body (the embedded world's expectations, without a journal) */
  observe?: ((seen: ObservedExchange) => void) | undefined;
}

/**
 * What every serving role (listen, hook-target, bot-sim) takes beside its own options: where
 * it listens, its faults, clock, journal and limits, and how it is reached.
 */
export interface RoleServerOptions {
  /** `--allowed-host`: Host names served beside localhost, IP addresses and `host` */
  allowedHosts?: readonly string[] | undefined;
  /** default 127.0.0.1 */
  host?: string;
  /** default 0: the OS picks a port (the `listening` URL tells it) */
  port?: number;
  /** the flag that set `port`, named when it is taken (default --port) */
  portFlag?: string;
  /** faults to inject into the replies */
  plan?: FaultPlan;
  clock?: Clock;
  journal?: Journal;
  /** request body limit in bytes (default 1 MiB; 413 beyond) */
  bodyLimit?: number;
  limits?: ServerLimits;
  /** serve HTTPS (`--tls`) */
  tls?: TlsServerOptions | undefined;
  /** `in-process`: no socket, for the embedded world (src/http/in-process.ts); default socket */
  transport?: Transport;
  /** hears every answered body (the embedded world's expectations) */
  observe?: (seen: ObservedExchange) => void;
}

/**
 * What every serving role (listen, hook-target, bot-sim) hands back: how it is served (a
 * socket, and `fetch` answering a Web standard Request through the same pipeline without
 * one; src/http/exchange.ts) and its first event, the one that names its URL.
 */
export interface ServingRole<Listening> extends Serving {
  readonly listening: Listening;
}

/** A body a role answered, as the embedded world's expectations match it. */
export interface ObservedExchange {
  json: unknown;
  /** the attempt of this message (the fault plan counts them) */
  attempt: number;
  /** the answer's body, as JSON when it is JSON; absent with no reply (reset, hang) */
  reply: unknown;
  /** the answer's HTTP status; absent with no reply */
  status?: number;
}

/** A reply body as JSON when it parses, else as text. */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One request to a role on its way through the pipeline. */
interface RoleContext extends PipelineContext {
  exchange: InboundExchange;
  /** why the role refused it (before its body, or a body it could not read) */
  refusal?: Refusal;
  /** the refusal's reply body as sent */
  refusalBody?: string;
  /** the body as the role judged it */
  read?: InboundBody;
  answer?: RoleAnswer;
  decision?: FaultDecision;
  applied?: AppliedReply;
}

/** The fault applied, in --fault syntax. */
const faultOf = (ctx: RoleContext): string =>
  ctx.decision ? describeFault(ctx.decision.fault) : 'none';

/** The request as the journal records it (the body as it came, when read). */
function requestOf(ctx: RoleContext): ExchangeInput['request'] {
  const { method, url, headers } = ctx.exchange;
  const raw = ctx.body?.raw;
  return { method, url, headers, ...(raw === undefined ? {} : { body: raw }) };
}

/** The role's record of an exchange: a refusal, or the answer with its fault and verdict. */
function roleRecord(role: InboundRole, ctx: RoleContext): ExchangeInput | undefined {
  const { clock } = role;
  const head: ExchangeInput = {
    protocolMs: ctx.started,
    iface: role.iface,
    direction: 'in',
    request: requestOf(ctx),
    durationMs: clock.now() - ctx.started,
    wallMs: clock.wallNow() - ctx.wallStarted,
  };
  if (ctx.refusal) {
    const kind = ctx.body?.ok ? role.kindOf?.(ctx.body.json) : undefined;
    if (kind !== undefined) head.kind = kind;
    head.response = { status: ctx.refusal.status, body: ctx.refusalBody ?? '' };
    head.notes = [ctx.refusal.code];
    return head;
  }
  const { answer, decision, applied } = ctx;
  if (!answer || !decision || !applied) return undefined;
  head.kind = answer.kind;
  head.attempt = decision.attempt;
  if (applied.noReply)
    head.failure = {
      reason: applied.noReply,
      message: `no reply: ${applied.noReply} (injected)`,
    };
  else head.response = { status: applied.status ?? 0, body: applied.body ?? '' };
  head.verdict = answer.verdict;
  head.fault = faultOf(ctx);
  if (answer.notes) head.notes = answer.notes;
  return head;
}

/** Refuses the request: the error reply (a body not read yet is the caller's to read or drop). */
function refuse(ctx: RoleContext, refusal: Refusal): void {
  ctx.refusal = refusal;
  ctx.refusalBody = JSON.stringify(errorBody(refusal.code, refusal.message));
  ctx.exchange.wire.send(refusal.status, ctx.refusalBody, refusal.headers ?? {}, {
    batched: true,
  });
}

/**
 * Refuses a request before its body, answered at once. With a `kindOf` the body that came with
 * the request (by the end of this turn: a peer writes its head and a small JSON body together)
 * is read for the record: the platform sent that payload and got the refusal, so the peer's
 * recording names its kind as the platform's does and `record diff` reads both as one
 * exchange. A body still on its way is not waited for: the request was answered, so nothing
 * ends it but the client (a client that never finishes it would hold its record back).
 */
function refuseUnread(role: InboundRole, ctx: RoleContext, refusal: Refusal): Promise<void> | void {
  if (!role.kindOf) {
    ctx.exchange.skipBody();
    return refuse(ctx, refusal);
  }
  const reading = ctx.exchange.readBody(role.bodyLimit ?? DEFAULT_BODY_LIMIT);
  refuse(ctx, refusal);
  const turnEnd = new Promise<undefined>((resolve) => setImmediate(resolve, undefined));
  return Promise.race([reading, turnEnd]).then((body) => {
    if (body) ctx.body = body;
  });
}

/**
 * The one place a role's request-rejected event is made (spec 7), with the path as the role
 * shows it: by `rejection` for the pipeline's refusals, and by a role's endpoint outside the
 * pipeline (bot-sim's token endpoint, its answer to a request that failed inside it). With
 * `transfer` (how the body came) the event is the pipeline's `InboundRejection`.
 */
export function rejectedEvent(
  request: { method: string; path: string; transfer: TransferMode },
  refused: Refusal,
  protocolMs: number,
  shownPath?: (path: string) => string,
): InboundRejection;
export function rejectedEvent(
  request: { method: string; path: string },
  refused: Refusal,
  protocolMs: number,
  shownPath?: (path: string) => string,
): RequestRejectedEvent;
export function rejectedEvent(
  request: { method: string; path: string; transfer?: TransferMode },
  refused: Refusal,
  protocolMs: number,
  shownPath?: (path: string) => string,
): RequestRejectedEvent {
  const { method, path, transfer } = request;
  return {
    type: 'request-rejected',
    method,
    path: shownPath ? shownPath(path) : path,
    status: refused.status,
    code: refused.code,
    message: refused.message,
    ...(transfer === undefined ? {} : { transfer }),
    protocolMs,
  };
}

/**
 * A role's request-rejected event in the pipeline: a refusal before the body, or a body the
 * role refused as it is (with the status it was answered).
 */
function rejection(role: InboundRole, ctx: RoleContext): InboundRejection | undefined {
  const { refusal, answer, applied } = ctx;
  const refused = refusal ?? answer?.refused;
  if (!refused) return undefined;
  const status = refusal?.status ?? applied?.status ?? 400;
  const { code, message } = refused;
  return rejectedEvent(ctx.exchange, { status, code, message }, ctx.started, role.shownPath);
}

/** After the exchange is journaled: what the role hears of it. */
function report(role: InboundRole, ctx: RoleContext): void {
  const { method, path } = ctx.exchange;
  const { refusal, answer, decision, applied, read } = ctx;
  const rejected = rejection(role, ctx);
  if (refusal && rejected) return role.onRejected(rejected);
  if (!answer || !decision || !applied || !read) return;
  role.observe?.({
    json: read.json,
    attempt: decision.attempt,
    reply: applied.noReply ? undefined : parsedOr(applied.body ?? ''),
    ...(applied.noReply || applied.status === undefined ? {} : { status: applied.status }),
  });
  if (rejected) return role.onRejected(rejected);
  role.onAnswered({
    method,
    path,
    body: read,
    answer,
    decision,
    applied,
    fault: faultOf(ctx),
    protocolMs: ctx.started,
    durationMs: role.clock.now() - ctx.started,
  });
}

/** A body the role refuses as it is: no fault, no attempt counted (spec 8). */
const UNFAULTED: FaultDecision = {
  fault: { kind: 'none' },
  delayMs: 0,
  attempt: 1,
  requestNumber: 0,
};

/**
 * The fault plan on the role's normal answer (spec 8: faults act on valid requests; a body
 * the role refuses as it is gets its answer as it is, and counts no attempt), written on the
 * exchange's wire.
 */
function roleFaults(role: InboundRole): Middleware<RoleContext> {
  const injector = createFaultInjector(role.plan ?? {});
  return faultStep<RoleContext>({
    decide: ({ answer }) => answer && (answer.refused ? UNFAULTED : injector.decide(answer.key)),
    wait: (ctx, decision) => waitOnWire(ctx.exchange.wire, role.clock, decision.delayMs),
    gone(ctx) {
      ctx.applied = { noReply: 'hang' };
    },
    async inject(ctx, effect) {
      ctx.applied = await answerOnWire(effect, answerContext(role, ctx));
    },
  });
}

/** What a fault acts on: the exchange's wire and the role's normal answer. */
function answerContext(role: InboundRole, ctx: RoleContext) {
  const normal = ctx.answer?.normal ?? { status: 200, body: '' };
  return { wire: ctx.exchange.wire, clock: role.clock, normal };
}

/**
 * The role's pipeline, composed once: what the role hears, the journal, refusals before the
 * body, the body within the limit (a body that cannot be read is refused), the fault plan on
 * the answer, the role's answer. It serves a socket or the in-process transport alike
 * (`serveExchanges`, src/http/exchange.ts).
 * @example serveExchanges('hooks', createInboundHandler({ iface: 'hook', clock, admit, answer, onRejected, onAnswered }), options, onError)
 */
export function createInboundHandler(
  role: InboundRole,
): (exchange: InboundExchange) => Promise<void> {
  const { clock } = role;
  const run = compose<RoleContext>(
    [
      (ctx, next) => after(next(ctx), () => report(role, ctx)),
      journalStep<RoleContext>(
        () => role.journal,
        (ctx) => roleRecord(role, ctx),
      ),
      (ctx, next) => {
        const refusal = role.admit(ctx.exchange);
        return refusal ? refuseUnread(role, ctx, refusal) : next(ctx);
      },
      bodyStep<RoleContext>({
        limit: role.bodyLimit ?? DEFAULT_BODY_LIMIT,
        read: (ctx, limit, then) => void ctx.exchange.readBody(limit).then(then),
      }),
      (ctx, next) => {
        const read = ctx.body;
        if (read && !read.ok) {
          ctx.exchange.skipBody();
          return refuse(ctx, { status: read.status, code: read.code, message: read.message });
        }
        return next(ctx);
      },
      (ctx, next) => {
        const body = ctx.body;
        if (!body?.ok) return;
        const read: InboundBody = {
          json: body.json,
          raw: body.raw,
          transfer: body.transfer,
          bytes: body.bytes,
        };
        ctx.read = read;
        ctx.answer = role.answer(read, ctx.exchange);
        return next(ctx);
      },
      roleFaults(role),
    ],
    (ctx) => {
      if (ctx.answer) ctx.applied = applyNone(answerContext(role, ctx));
    },
  );
  return async (exchange) =>
    run({ method: exchange.method, started: clock.now(), wallStarted: clock.wallNow(), exchange });
}
