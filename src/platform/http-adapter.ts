import type { IncomingMessage, ServerResponse } from 'node:http';
import { flatHeaders, readJsonBodyThen, sendJson } from '../http/body.js';
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
import { responseHeaders, responseText } from './fetch-adapter.js';
import { bodyOf, mountInProcess, type Mounted } from '../http/in-process.js';
import { errorText } from '../errors.js';
import { endInBatch } from '../http/response-batch.js';
import {
  createControlGuard,
  isControlPath,
  withCors,
  type ControlAccessOptions,
  type ControlVerdict,
} from './control-access.js';
import { recordExchange } from '../journal/index.js';

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
  const server = await startServer({
    ...listenAt(options),
    ...(options.portFlag ? { portFlag: options.portFlag } : {}),
    handler: (req, res) => handleHttp(core, guard, req, res, options.bodyLimit),
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

/**
 * Reads, handles, answers and journals one request. Callbacks rather than awaits: a
 * synchronous route (the channel's ingest) is answered in the turn its body arrived, with no
 * promise hops (part of the ingest bench).
 */
function handleHttp(
  core: PlatformCore,
  guard: Guard,
  req: IncomingMessage,
  res: ServerResponse,
  bodyLimit?: number,
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
  const exchange: Exchange = { core, req, res, request, started, wallStarted };
  // the channel's ingest never gets here: one startsWith on the hot path
  if (isControlPath(url.path)) {
    const verdict = guard(request);
    if (verdict.kind !== 'pass') {
      if (verdict.kind === 'refuse') core.emit(refusedNotice(core, verdict.reason));
      req.resume(); // the body is not read: the connection closes after the answer
      respond(exchange, verdict.response);
      return;
    }
    exchange.cors = verdict.cors ?? '';
  }
  if (method === 'GET' || method === 'HEAD') return answer(exchange);
  return new Promise<void>((resolve, reject) =>
    readJsonBodyThen(req, bodyLimit === undefined ? {} : { limit: bodyLimit }, (body) => {
      request.body = body;
      try {
        const answered = answer(exchange);
        if (answered) answered.then(resolve, reject);
        else resolve();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(errorText(error)));
      }
    }),
  );
}

interface Exchange {
  core: PlatformCore;
  req: IncomingMessage;
  res: ServerResponse;
  request: PlatformRequest;
  started: number;
  wallStarted: number;
  /** a /_sim/ request: the admitted cross-origin caller ('' for none) */
  cors?: string;
}

function answer(exchange: Exchange): void | Promise<void> {
  const response = exchange.core.handle(exchange.request);
  // a native promise even for another thenable: the server catches only native rejections
  if (isPromise(response)) return Promise.resolve(response).then((r) => respond(exchange, r));
  respond(exchange, response);
}

/** A promise or any thenable a service returned (not only a native Promise). */
const isPromise = (
  value: PlatformResponse | Promise<PlatformResponse>,
): value is Promise<PlatformResponse> => typeof (value as { then?: unknown }).then === 'function';

function respond(
  { core, req, res, request, started, wallStarted, cors }: Exchange,
  answered: PlatformResponse,
): void {
  const response = cors === undefined ? answered : withCors(answered, cors || undefined);
  if (response.stream) {
    res.writeHead(response.status, response.headers ?? {});
    response.stream(
      (chunk) => res.write(chunk),
      (fn) => res.on('close', fn),
    );
    return;
  }
  const text = writeResponse(
    res,
    response,
    request.body?.ok === false && request.body.status === 413,
  );
  recordAnswer(core, request, req.url ?? '/', response, text, started, wallStarted);
}

/**
 * The journal record of one answered request, whatever carried it (socket or in process);
 * the control API's reads stay out of it.
 */
function recordAnswer(
  core: PlatformCore,
  request: PlatformRequest,
  target: string,
  response: PlatformResponse,
  text: string,
  started: number,
  wallStarted: number,
): void {
  if (request.method === 'GET' && request.path.startsWith('/_sim/')) return; // quiet reads
  const body = request.body;
  const notes = body ? [`transfer: ${body.transfer}`] : [];
  if (response.record?.notes) notes.push(...response.record.notes);
  recordExchange(core.journal, {
    protocolMs: started,
    iface: response.record?.iface ?? 'control',
    direction: 'in',
    ...(response.record?.kind ? { kind: response.record.kind } : {}),
    chat: response.record?.chat,
    request: {
      method: request.method,
      url: `${core.baseUrl}${target}`,
      headers: request.headers,
      ...(body ? { body: body.ok ? body.raw : (body.raw ?? `<${body.code}>`) } : {}),
    },
    response: { status: response.status, body: text },
    durationMs: core.clock.now() - started,
    wallMs: core.clock.wallNow() - wallStarted,
    ...(response.record?.verdict ? { verdict: response.record.verdict } : {}),
    notes,
  });
}

/**
 * Serves the core in process: the embedded world's roles and steps reach it by the
 * mount's URL, without a socket; the core's baseUrl is set to it. Answers and journals as
 * `servePlatform` does.
 * @example const mounted = mountPlatform(core); await postJson({ url: `${core.baseUrl}/_sim/state`, ... });
 */
export function mountPlatform(core: PlatformCore, options: { bodyLimit?: number } = {}): Mounted {
  const mounted = mountInProcess(
    'platform',
    (incoming, wire) => {
      const started = core.clock.now();
      const wallStarted = core.clock.wallNow();
      const url = requestPathOf(incoming.target);
      const request: PlatformRequest = {
        method: incoming.method,
        path: url.path,
        query: url.query,
        headers: incoming.headers,
      };
      if (request.method !== 'GET' && request.method !== 'HEAD')
        request.body = bodyOf(incoming, options.bodyLimit);
      const finish = (response: PlatformResponse): void => {
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
        recordAnswer(core, request, incoming.target, response, text, started, wallStarted);
      };
      const response = core.handle(request);
      if (isPromise(response)) return Promise.resolve(response).then(finish);
      finish(response);
    },
    (error) => core.emit(handlerFailed(core, error)),
  );
  core.baseUrl = mounted.url;
  return mounted;
}

function writeResponse(
  res: ServerResponse,
  response: PlatformResponse,
  closeAfter: boolean,
): string {
  const text =
    response.body === undefined
      ? ''
      : typeof response.body === 'string'
        ? response.body
        : JSON.stringify(response.body);
  const headers: Record<string, string> = {
    ...(closeAfter ? { connection: 'close' } : {}),
    ...response.headers,
  };
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
