import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_BODY_LIMIT,
  flatHeaders,
  readJsonBodyThen,
  sendJson,
  type BodyResult,
  type TransferMode,
} from '../http/body.js';
import {
  bodyStep,
  compose,
  type Middleware,
  type Next,
  type PipelineContext,
} from '../http/pipeline.js';
import type { ReplyWire } from '../http/wire.js';
import {
  listenAt,
  requestPathOf,
  startServer,
  type RunningServer,
  type ServerLimits,
} from '../http/server.js';
import type { TlsServerOptions } from '../http/tls.js';
import type { PlatformCore } from './core.js';
import type { PlatformRequest, PlatformResponse } from './types.js';
import type { PlatformEvent } from './events.js';
import { bodyText } from './constant-body.js';
import { responseHeaders, responseText } from './fetch-adapter.js';
import { bodyOf, mountInProcess, type Mounted } from '../http/in-process.js';
import {
  readFetchBody,
  serveFetch,
  transferOfRequest,
  type FetchFace,
} from '../http/fetch-adapter.js';
import { errorText } from '../errors.js';
import { endInBatch } from '../http/response-batch.js';
import {
  createControlGuard,
  isControlPath,
  withCors,
  type ControlAccessOptions,
  type ControlVerdict,
} from './control-access.js';
import { journalStep, type ExchangeInput } from '../journal/index.js';
import type { FaultDecision } from '../faults/index.js';
import { platformFaults, type AppliedFault, type PlatformFaultIo } from './faults.js';
import { socketWire } from '../http/wire.js';

export interface ServePlatformOptions {
  host?: string;
  port?: number;
  /** request body limit in bytes (default 1 MiB -> 413) */
  bodyLimit?: number;
  limits?: ServerLimits;
  /** serve HTTPS (`--tls`) */
  tls?: TlsServerOptions | undefined;
  /** the flag that sets the port, for the "port taken" hint (default `--port`) */
  portFlag?: string;
  /** `--allowed-host`: Host names served beside localhost, IP addresses and `host` */
  allowedHosts?: readonly string[] | undefined;
  /** who may use /_sim/ beside the server's own origin, and its token (control-access.ts) */
  access?: ControlAccessOptions | undefined;
}

type Guard = (request: PlatformRequest) => ControlVerdict;

/** Puts the core on a loopback socket: every request is read, handled, answered and journaled. */
export async function servePlatform(
  core: PlatformCore,
  options: ServePlatformOptions = {},
): Promise<RunningServer> {
  const guard = createControlGuard(options.access ?? {}, options.tls !== undefined);
  const run = socketPipeline(options.bodyLimit);
  const server = await startServer({
    ...listenAt(options),
    ...(options.portFlag ? { portFlag: options.portFlag } : {}),
    handler: (req, res, fail) => handleHttp(core, guard, run, req, res, fail),
    onHandlerError: (error) => core.emit(handlerFailed(core, error)),
    onHostRefused: (host) =>
      core.emit(refusedNotice(core, `a request for Host ${host} (--allowed-host admits it)`)),
  });
  core.baseUrl = server.url;
  return server;
}

/** what the adapter announces of itself: notices, never a moment of a chat */
type NoticeEvent = Extract<PlatformEvent, { type: 'notice' }>;

const handlerFailed = (core: PlatformCore, error: unknown): NoticeEvent => ({
  type: 'notice',
  level: 'error',
  message: `handler failed: ${errorText(error)}`,
  protocolMs: core.clock.now(),
});

const refusedNotice = (core: PlatformCore, what: string): NoticeEvent => ({
  type: 'notice',
  level: 'warning',
  message: `refused ${what} (docs/SECURITY.md)`,
  protocolMs: core.clock.now(),
});

/** One request to the platform on its way through the pipeline, whatever carried it. */
export interface PlatformContext extends PipelineContext {
  core: PlatformCore;
  request: PlatformRequest;
  /** the URL the journal records */
  url: string;
  /** what was answered, for the journal (absent: nothing to record, e.g. a stream) */
  answered?: PlatformResponse | undefined;
  /** the answer's body as sent */
  text?: string;
  /** the fault plan's decision (with a plan in force only) */
  decision?: FaultDecision | undefined;
  /** the fault applied, for the journal (src/platform/faults.ts) */
  fault?: AppliedFault | undefined;
}

interface SocketContext extends PlatformContext {
  req: IncomingMessage;
  res: ServerResponse;
  guard: Guard;
  /** a /_sim/ request: the admitted cross-origin caller ('' for none) */
  cors?: string;
  /** the guard's answer to a /_sim/ request it refused */
  refused?: PlatformResponse;
}

/** A request carried without a socket (in process, or a fetch Request): answered on a wire. */
interface WireContext extends PlatformContext {
  wire: ReplyWire;
  /** the body within the limit: at once (in process) or later through `then` (a Request) */
  read: (limit: number, then: (body: BodyResult) => void) => BodyResult | undefined;
}

/** The journal note of each framing of a request body (one string each, not one per request). */
const TRANSFER_NOTES: Readonly<Record<TransferMode, string>> = {
  'content-length': 'transfer: content-length',
  chunked: 'transfer: chunked',
  none: 'transfer: none',
};

/**
 * The journal record of one answered request, whatever carried it (socket, in process, msw:
 * `via` 'msw' marks its records and leaves out the wall time, as it always did); the control
 * API's reads stay out of it. A request the fault plan acted on (src/platform/faults.ts) says
 * so in a note and `fault`; one it left without a reply is recorded with its failure.
 */
export function platformRecord(ctx: PlatformContext, via?: 'msw'): ExchangeInput | undefined {
  const { core, request, answered: response, started, fault } = ctx;
  if (!response && !fault?.failure) return undefined;
  // quiet reads
  if (request.method === 'GET' && request.path.startsWith('/_sim/') && !fault) return undefined;
  const body = request.body;
  const notes = via === 'msw' ? [via] : body ? [TRANSFER_NOTES[body.transfer]] : [];
  const record = response?.record;
  if (record?.notes) notes.push(...record.notes);
  // built field by field in the order they are journaled, without spreading a temporary
  // object for each optional one (a record per request on the ingest path)
  const head: ExchangeInput = {
    protocolMs: started,
    iface: record?.iface ?? fault?.iface ?? 'control',
    direction: 'in',
  } as ExchangeInput;
  if (record?.kind) head.kind = record.kind;
  head.chat = record?.chat;
  const journaled: ExchangeInput['request'] = {
    method: request.method,
    url: ctx.url,
    headers: request.headers,
  };
  if (body) journaled.body = body.ok ? body.raw : (body.raw ?? `<${body.code}>`);
  head.request = journaled;
  if (response) head.response = { status: response.status, body: ctx.text ?? '' };
  else if (fault?.failure) head.failure = fault.failure;
  head.durationMs = core.clock.now() - started;
  if (via !== 'msw') head.wallMs = core.clock.wallNow() - ctx.wallStarted;
  if (record?.verdict) head.verdict = record.verdict;
  if (fault) {
    head.fault = fault.name;
    notes.push(`fault: ${fault.name}`);
  }
  head.notes = notes;
  return head;
}

/** The platform's journal step: every adapter's exchanges recorded alike. */
export const journalPlatform = <C extends PlatformContext>(via?: 'msw'): Middleware<C> =>
  journalStep<C>(
    (ctx) => ctx.core.journal,
    (ctx) => platformRecord(ctx, via),
  );

const hasBody = (ctx: PlatformContext): boolean => ctx.method !== 'GET' && ctx.method !== 'HEAD';

/**
 * The control API's guard (/_sim/ only: the channel's ingest passes with one startsWith): a
 * refused request is answered without reading its body (the connection closes after it), and
 * journaled through the same journal step.
 */
const guardStep = (): Middleware<SocketContext> => {
  const refuse = compose<SocketContext>([journalPlatform<SocketContext>()], (ctx) => {
    ctx.req.resume(); // the body is not read: the connection closes after the answer
    if (ctx.refused) respondSocket(ctx, ctx.refused);
  });
  return (ctx, next) => {
    if (!isControlPath(ctx.request.path)) return next(ctx);
    const verdict = ctx.guard(ctx.request);
    if (verdict.kind === 'pass') {
      ctx.cors = verdict.cors ?? '';
      return next(ctx);
    }
    if (verdict.kind === 'refuse') ctx.core.emit(refusedNotice(ctx.core, verdict.reason));
    ctx.refused = verdict.response;
    return refuse(ctx);
  };
};

/** The core's answer to a request, handed to `respond` when it is ready. */
export function handleWith<C extends PlatformContext>(
  respond: (ctx: C, response: PlatformResponse) => void,
): Next<C> {
  return (ctx) => {
    if (ctx.body) ctx.request.body = ctx.body;
    const response = ctx.core.handle(ctx.request);
    // a native promise even for another thenable: the server catches only native rejections
    if (isPromise(response)) return Promise.resolve(response).then((r) => respond(ctx, r));
    respond(ctx, response);
  };
}

/**
 * The socket's pipeline, composed once: control guard, body within the limit, journal, the
 * fault plan (src/platform/faults.ts), the core. Callbacks rather than awaits: a synchronous
 * route (the channel's ingest) is answered and journaled in the turn its body arrived, with no
 * promise hop but the body's (part of the ingest bench); so the journal step sits inside the
 * body step, and the guard's refusals, answered before any body, go through a journal step of
 * their own. With no plan in force (the core's `faults`, which `PUT /_sim/faults` switches)
 * the fault step is one check.
 */
function socketPipeline(bodyLimit: number | undefined): Next<SocketContext> {
  return compose<SocketContext>(
    [
      guardStep(),
      bodyStep<SocketContext>({
        limit: bodyLimit ?? DEFAULT_BODY_LIMIT,
        wants: hasBody,
        read: (ctx, limit, then) => void readJsonBodyThen(ctx.req, { limit }, then),
      }),
      journalPlatform<SocketContext>(),
      platformFaults(SOCKET_FAULTS),
    ],
    handleWith(respondSocket),
  );
}

function handleHttp(
  core: PlatformCore,
  guard: Guard,
  run: Next<SocketContext>,
  req: IncomingMessage,
  res: ServerResponse,
  fail: (error: unknown) => void,
): void | Promise<void> {
  const started = core.clock.now();
  const wallStarted = core.clock.wallNow();
  const url = requestPathOf(req.url);
  const method = req.method ?? 'GET';
  const request: PlatformRequest = {
    method,
    path: url.path,
    query: url.query,
    headers: flatHeaders(req),
  };
  return run({
    method,
    started,
    wallStarted,
    core,
    request,
    url: `${core.baseUrl}${req.url ?? '/'}`,
    req,
    res,
    guard,
    fail,
  });
}

/** A promise or any thenable a service returned (not only a native Promise). */
const isPromise = (
  value: PlatformResponse | Promise<PlatformResponse>,
): value is Promise<PlatformResponse> => typeof (value as { then?: unknown }).then === 'function';

function respondSocket(ctx: SocketContext, answered: PlatformResponse): void {
  const { res, request, cors } = ctx;
  const response = cors === undefined ? answered : withCors(answered, cors || undefined);
  if (response.stream) {
    res.writeHead(response.status, response.headers ?? {});
    response.stream(
      (chunk) => res.write(chunk),
      (fn) => res.on('close', fn),
    );
    return;
  }
  ctx.text = writeResponse(
    res,
    response,
    request.body?.ok === false && request.body.status === 413,
  );
  ctx.answered = response;
}

/** How the fault step answers on a socket: its wire, with the guard's CORS answer. */
const SOCKET_FAULTS: PlatformFaultIo<SocketContext> = {
  wire: (ctx) => socketWire(ctx.req, ctx.res),
  shape: (ctx, response) =>
    ctx.cors === undefined ? response : withCors(response, ctx.cors || undefined),
  respond: respondSocket,
};

/**
 * The core's answer written on a wire (in process, the fetch face, the msw handlers): a
 * stream piece by piece, else the whole reply.
 */
export function respondOnWire(
  ctx: PlatformContext & { wire: ReplyWire },
  response: PlatformResponse,
): void {
  const { wire } = ctx;
  if (response.stream) {
    wire.start(response.status, response.headers ?? {});
    response.stream(
      (chunk) => {
        wire.write(chunk);
        return true;
      },
      (fn) => void wire.onClose(fn),
    );
    return;
  }
  const text = responseText(response);
  wire.send(response.status, text, responseHeaders(response));
  ctx.text = text;
  ctx.answered = response;
}

/** How the fault step answers without a socket: the exchange's wire, the answer as it is. */
const WIRE_FAULTS: PlatformFaultIo<WireContext> = {
  wire: (ctx) => ctx.wire,
  shape: (_ctx, response) => response,
  respond: respondOnWire,
};

/**
 * The pipeline without a socket, composed once per adapter: the body within the limit, the
 * journal, the fault plan in force, the core; the same as the socket's but the guard (no
 * cross-origin caller: the caller is this process).
 */
function wirePipeline(bodyLimit: number | undefined): Next<WireContext> {
  return compose<WireContext>(
    [
      bodyStep<WireContext>({
        limit: bodyLimit ?? DEFAULT_BODY_LIMIT,
        wants: hasBody,
        read: (ctx, limit, then) => ctx.read(limit, then),
      }),
      journalPlatform<WireContext>(),
      platformFaults(WIRE_FAULTS),
    ],
    handleWith(respondOnWire),
  );
}

/** What the wire adapters take: the body limit (the fault plan is the core's `faults`). */
export interface WireAdapterOptions {
  bodyLimit?: number | undefined;
}

/** A request without a socket as the pipeline takes it: `target` is its path and query. */
function wireContext(
  core: PlatformCore,
  head: { method: string; target: string; headers: Record<string, string> },
  origin: string,
  wire: ReplyWire,
  read: WireContext['read'],
): WireContext {
  const { method, target, headers } = head;
  const url = requestPathOf(target);
  return {
    method,
    started: core.clock.now(),
    wallStarted: core.clock.wallNow(),
    core,
    request: { method, path: url.path, query: url.query, headers },
    url: `${core.baseUrl || origin}${target}`,
    wire,
    read,
  };
}

/**
 * Serves the core in process: the embedded world's roles and steps reach it by the
 * mount's URL, without a socket; the core's baseUrl is set to it. The same pipeline as
 * `servePlatform` but the guard (no cross-origin caller in process).
 * @example const mounted = mountPlatform(core); await postJson({ url: `${core.baseUrl}/_sim/state`, ... });
 */
export function mountPlatform(core: PlatformCore, options: WireAdapterOptions = {}): Mounted {
  const run = wirePipeline(options.bodyLimit);
  const mounted = mountInProcess(
    'platform',
    (incoming, wire) =>
      run(wireContext(core, incoming, '', wire, (limit) => bodyOf(incoming, limit))),
    (error) => core.emit(handlerFailed(core, error)),
  );
  core.baseUrl = mounted.url;
  return mounted;
}

/**
 * The platform's fetch face (src/http/fetch-adapter.ts): a Web standard Request through the
 * same pipeline as `mountPlatform` (body within the limit, journal, core), without a socket;
 * an event stream (`/_sim/events`) as a streamed body. The journal names the core's baseUrl
 * (the Request's origin while the platform serves nowhere else).
 * @example const face = platformFetch(core); const res = await face.fetch(new Request(`${url}/_sim/state`));
 */
export function platformFetch(core: PlatformCore, options: WireAdapterOptions = {}): FetchFace {
  const run = wirePipeline(options.bodyLimit);
  return serveFetch(
    (request, wire) => {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const head = { method: request.method, target: `${url.pathname}${url.search}`, headers };
      const transfer = transferOfRequest(request);
      return run(
        wireContext(core, head, url.origin, wire, (limit, then) => {
          void readFetchBody(request, limit, transfer).then(then);
          return undefined;
        }),
      );
    },
    { onHandlerError: (error) => core.emit(handlerFailed(core, error)) },
  );
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

function writeResponse(
  res: ServerResponse,
  response: PlatformResponse,
  closeAfter: boolean,
): string {
  const text = bodyText(response.body);
  // read only below (sendJson and writeHead copy it): no copy per request without a change
  const headers: Record<string, string> = closeAfter
    ? { connection: 'close', ...response.headers }
    : (response.headers ?? NO_HEADERS);
  if (typeof response.body === 'string' && headers['content-type']) {
    res.writeHead(response.status, {
      ...headers,
      'content-length': String(Buffer.byteLength(text)),
    });
    endInBatch(res, text);
  } else {
    sendJson(res, response.status, text, headers);
  }
  return text;
}
