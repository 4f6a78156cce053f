/**
 * One request to a serving role, whatever carried it: a loopback socket (the
 * serving commands, real peers) or the in-process transport (the embedded world). A role
 * written against `InboundExchange` serves both the same way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  flatHeaders,
  readJsonBody,
  transferModeOf,
  type BodyResult,
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
import { ROLE_COMMANDS, SVC_ROLE_HEADER } from './role-header.js';

export interface InboundExchange {
  method: string;
  /** the path without the query */
  path: string;
  /** the URL as the journal records it (origin and path) */
  url: string;
  /** lower-case names */
  headers: Record<string, string>;
  transfer: TransferMode;
  /** reads the body within `limit` bytes (413 beyond); never throws */
  readBody(limit: number): Promise<BodyResult>;
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

/** A serving role's endpoint: its URL, the socket server (absent in process), and close. */
export interface Serving {
  readonly url: string;
  readonly server?: RunningServer;
  close(graceMs?: number): Promise<void>;
}

/**
 * The exchange of a node:http request.
 * @example startServer({ handler: (req, res) => handle(socketExchange(req, res)) });
 */
export function socketExchange(req: IncomingMessage, res: ServerResponse): InboundExchange {
  const path = requestPathOf(req.url).path;
  return {
    method: req.method ?? 'GET',
    path,
    url: `http://${req.headers.host ?? 'localhost'}${path}`,
    headers: flatHeaders(req),
    transfer: transferModeOf(req),
    readBody: (limit) => readJsonBody(req, { limit }),
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
    url: `${request.url.slice(0, request.url.length - request.target.length)}${path}`,
    headers: request.headers,
    transfer: request.transfer,
    readBody: (limit) => Promise.resolve(bodyOf(request, limit)),
    skipBody: () => undefined,
    wire,
  };
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
  if (options.transport === 'in-process')
    return mountInProcess(
      name,
      (request, wire) => handler(inProcessExchange(request, wire)),
      onHandlerError,
    );
  const role = ROLE_COMMANDS[name] ?? name;
  const server = await startServer({
    handler: (req, res) => {
      res.setHeader(SVC_ROLE_HEADER, role); // on every reply, faults and refusals included
      return handler(socketExchange(req, res));
    },
    ...listenAt(options),
    ...(options.portFlag ? { portFlag: options.portFlag } : {}),
    onHandlerError,
  });
  return { url: server.url, server, close: (graceMs) => server.close(graceMs) };
}
