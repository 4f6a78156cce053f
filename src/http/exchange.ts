/**
 * One request to a serving role, whatever carried it: a loopback socket (the
 * serving commands, real peers), the in-process transport (the embedded world) or a Web
 * standard Request (the fetch face, fetch-adapter.ts). A role written against
 * `InboundExchange` serves all three the same way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  flatHeaders,
  rawTooLarge,
  readJsonBody,
  readRawBody,
  transferModeOf,
  type BodyResult,
  type RawBody,
  type TransferMode,
} from './body.js';
import { bodyOf, mountInProcess, type InProcessRequest } from './in-process.js';
import {
  listenAt,
  requestPathOf,
  startServer,
  type ListenAt,
  type RunningServer,
} from './server.js';
import { socketWire, type ReplyWire } from './wire.js';
import {
  readFetchBody,
  readFetchRaw,
  serveFetch,
  transferOfRequest,
  type FetchFace,
  type FetchHandler,
} from './fetch-adapter.js';
import { ROLE_COMMANDS, SVC_ROLE_HEADER } from './role-header.js';

export interface InboundExchange {
  method: string;
  /** the path without the query */
  path: string;
  /** the query as sent, with its `?` ('' without one) */
  search: string;
  /** the URL as the journal records it (origin and path) */
  url: string;
  /** lower-case names */
  headers: Record<string, string>;
  transfer: TransferMode;
  /** reads the body within `limit` bytes (413 beyond); never throws */
  readBody(limit: number): Promise<BodyResult>;
  /** reads the body as bytes, whatever they are, within `limit` (the proxy); never rejects */
  readRaw(limit: number): Promise<RawBody>;
  /** drops a body that will not be read (a refusal before it) */
  skipBody(): void;
  wire: ReplyWire;
}

export type ExchangeHandler = (exchange: InboundExchange) => void | Promise<void>;

/** Where the embedded world's roles answer: a socket, or in process. */
export type Transport = 'socket' | 'in-process';

export interface ServeExchangesOptions extends ListenAt {
  /** default `socket` */
  transport?: Transport | undefined;
  /** the flag that sets the port, named when it is taken */
  portFlag?: string;
}

/**
 * A serving role's endpoint: its URL, the socket server (absent in process), its fetch face
 * (the same pipeline without a socket), and close.
 */
export interface Serving {
  readonly url: string;
  readonly server?: RunningServer;
  /** a Web standard Request answered by the role's pipeline, as hono's `app.fetch` */
  readonly fetch: FetchHandler;
  close(graceMs?: number): Promise<void>;
}

/** The query of a request target, with its `?` ('' without one). */
function searchOf(target: string): string {
  const at = target.indexOf('?');
  return at === -1 ? '' : target.slice(at);
}

/**
 * The exchange of a node:http request.
 * @example startServer({ handler: (req, res) => handle(socketExchange(req, res)) });
 */
export function socketExchange(req: IncomingMessage, res: ServerResponse): InboundExchange {
  const target = req.url ?? '/';
  const path = requestPathOf(target).path;
  return {
    method: req.method ?? 'GET',
    path,
    search: searchOf(target),
    url: `http://${req.headers.host ?? 'localhost'}${path}`,
    headers: flatHeaders(req),
    transfer: transferModeOf(req),
    readBody: (limit) => readJsonBody(req, { limit }),
    readRaw: (limit) => readRawBody(req, limit),
    skipBody: () => req.resume(),
    wire: socketWire(req, res),
  };
}

/** The exchange of an in-process request. */
export function inProcessExchange(request: InProcessRequest, wire: ReplyWire): InboundExchange {
  const path = requestPathOf(request.target).path;
  return {
    method: request.method,
    path,
    search: searchOf(request.target),
    url: `${request.url.slice(0, request.url.length - request.target.length)}${path}`,
    headers: request.headers,
    transfer: request.transfer,
    readBody: (limit) => Promise.resolve(bodyOf(request, limit)),
    readRaw(limit) {
      const bytes = Buffer.from(request.body ?? '');
      return Promise.resolve(bytes.length > limit ? rawTooLarge(limit) : { ok: true, body: bytes });
    },
    skipBody: () => undefined,
    wire,
  };
}

/**
 * The exchange of a Request: the path as a socket's `req.url` gives it, lower-case headers,
 * the body read within the limit the pipeline's body step names.
 */
export function fetchExchange(request: Request, wire: ReplyWire): InboundExchange {
  const url = new URL(request.url);
  const { path } = requestPathOf(`${url.pathname}${url.search}`);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const transfer = transferOfRequest(request);
  return {
    method: request.method,
    path,
    search: url.search,
    url: `${url.origin}${path}`,
    headers,
    transfer,
    readBody: (limit) => readFetchBody(request, limit, transfer),
    readRaw: (limit) => readFetchRaw(request, limit),
    skipBody: () => void request.body?.cancel().catch(() => undefined),
    wire,
  };
}

/**
 * The fetch face of an `ExchangeHandler` (a role's pipeline, the proxy's): each Request is
 * served as the exchange a socket would make of it.
 * @example const face = exchangeFetch(createInboundHandler(role)); const res = await face.fetch(new Request('http://listen.test/ch', { method: 'POST', body }));
 */
export function exchangeFetch(
  handler: ExchangeHandler,
  options: { headers?: Record<string, string>; onHandlerError?: (error: unknown) => void } = {},
): FetchFace {
  return serveFetch((request, wire) => handler(fetchExchange(request, wire)), options);
}

/**
 * Serves a role's handler on a loopback socket (default) or in process; `name` names the
 * in-process origin (`listen` -> `http://listen-1.in-process.invalid`).
 * @example const serving = await serveExchanges('listen', handle, { port: 0 }, onError);
 */
export async function serveExchanges(
  name: string,
  handler: ExchangeHandler,
  options: ServeExchangesOptions,
  onHandlerError: (error: unknown) => void,
): Promise<Serving> {
  const role = ROLE_COMMANDS[name] ?? name;
  // the socket's role header on every reply of the fetch face too
  const face = exchangeFetch(handler, { headers: { [SVC_ROLE_HEADER]: role }, onHandlerError });
  if (options.transport === 'in-process') {
    const mounted = mountInProcess(
      name,
      (request, wire) => handler(inProcessExchange(request, wire)),
      onHandlerError,
    );
    return {
      url: mounted.url,
      fetch: face.fetch,
      close: (graceMs) => (face.close(), mounted.close(graceMs)),
    };
  }
  const server = await startServer({
    handler: (req, res) => {
      res.setHeader(SVC_ROLE_HEADER, role); // on every reply, faults and refusals included
      return handler(socketExchange(req, res));
    },
    ...listenAt(options),
    ...(options.portFlag ? { portFlag: options.portFlag } : {}),
    onHandlerError,
  });
  return {
    url: server.url,
    server,
    fetch: face.fetch,
    close: (graceMs) => (face.close(), server.close(graceMs)),
  };
}
