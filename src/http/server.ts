import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { SvcError, systemReason } from '../errors.js';
import type { TlsServerOptions } from './tls.js';
import { createHostCheck, hostRefusal } from './host-check.js';
import { describeFileLimit, fileLimit, isFileLimitError } from '../io/file-limit.js';
import { connectionBudget, noteRefusal } from './connection-refusals.js';
import { errorBody, type WireErrorCode } from '../wire-errors.js';

/** Limits every serving command applies so a slow or hostile client cannot hold it. */
export interface ServerLimits {
  /** max time to receive the request headers (default 10 s) */
  headersTimeoutMs?: number;
  /** max time to receive the whole request (default 30 s) */
  requestTimeoutMs?: number;
  /** idle keep-alive sockets are closed after this (default 65 s) */
  keepAliveTimeoutMs?: number;
  /** concurrent connections; beyond it new sockets are closed at once (default 1024) */
  maxConnections?: number;
}

/** The defaults of `ServerLimits` (docs/RELIABILITY.md). */
export const DEFAULT_SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // node's own 5 s closes a client's pooled connection in any pause longer than that, and the
  // next burst reconnects: 200 conversations after 8 s of quiet opened 48 connections in their
  // first second, the bot round trips' worst. Front ends keep an idle connection
  // about a minute (docs/FIDELITY.md); clients that honour `Keep-Alive: timeout=65` (undici)
  // close theirs first, so none is reused as the server closes it.
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1024,
} as const;

export interface StartServerOptions {
  /**
   * Answers a request. A failure is a throw, a rejected promise, or a call of `fail` (for a
   * handler that answers from a callback, without a promise per request).
   */
  handler: (
    req: IncomingMessage,
    res: ServerResponse,
    fail: (error: unknown) => void,
  ) => void | Promise<void>;
  /** default 127.0.0.1 (loopback only) */
  host?: string;
  /** default 0: the OS picks a free port */
  port?: number;
  limits?: ServerLimits;
  /** called when a handler throws: the server answers 500 and keeps serving */
  onHandlerError?: (error: unknown, req: IncomingMessage) => void;
  /** serve HTTPS with this key and certificate (`--tls`) */
  tls?: TlsServerOptions | undefined;
  /** the flag that sets the port, named when it is taken (default `--port`) */
  portFlag?: string;
  /**
   * Host names served beside localhost, IP addresses and `host` (`--allowed-host`); any other
   * Host is answered 403 (src/http/host-check.ts)
   */
  allowedHosts?: readonly string[] | undefined;
  /** told of each request refused for its Host, e.g. to print a hint */
  onHostRefused?: (host: string, req: IncomingMessage) => void;
}

/** Where a serving role listens, as its options give it (unset ones keep startServer's defaults). */
export interface ListenAt {
  host?: string | undefined;
  port?: number | undefined;
  limits?: ServerLimits | undefined;
  tls?: TlsServerOptions | undefined;
  /** `--allowed-host`: Host names served beside localhost, IP addresses and `host` */
  allowedHosts?: readonly string[] | undefined;
}

/**
 * The host, port and limits of a role's options, without the unset ones (exactOptionalPropertyTypes).
 * @example startServer({ handler, ...listenAt(options) })
 */
export function listenAt(
  options: ListenAt,
): Pick<StartServerOptions, 'host' | 'port' | 'limits' | 'tls' | 'allowedHosts'> {
  return {
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  };
}

export interface RunningServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly server: Server;
  /** Stops accepting, lets in-flight requests end within `graceMs`, then closes every socket. */
  close(graceMs?: number): Promise<void>;
}

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host.startsWith('127.');

/** True when binding `host` exposes the server beyond this machine (callers warn). */
export function isNonLoopbackHost(host: string): boolean {
  return !isLoopback(host);
}

const PLAIN_PATH = /^\/[A-Za-z0-9_\-/]*$/;

/**
 * The path and query of a request target, never throwing: `//x`, `*`, `http://h/p` (absolute
 * form) and bad percent-escapes all give an answer (found by fuzzing).
 * @example requestPathOf('//a?b=1') // { path: '//a', query: URLSearchParams { b: '1' } }
 */
export function requestPathOf(target: string | undefined): {
  path: string;
  query: URLSearchParams;
} {
  const text = target ?? '/';
  // Fast path for the common plain target (no query, dots, escapes or backslashes): the
  // WHATWG parser would return it unchanged.
  if (PLAIN_PATH.test(text)) return { path: text, query: new URLSearchParams() };
  try {
    const url = text.startsWith('/') ? new URL(`http://h${text}`) : new URL(text);
    return { path: url.pathname, query: url.searchParams };
  } catch {
    return { path: '/', query: new URLSearchParams() };
  }
}

/** The status of a request node could not parse or that came too slowly. */
function clientErrorAnswer(code: string | undefined): [number, string, WireErrorCode, string] {
  switch (code ?? '') {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'request_timeout', 'the request did not arrive in time'];
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        'Request Header Fields Too Large',
        'headers_too_large',
        'the headers are too large',
      ];
    default:
      return [400, 'Bad Request', 'invalid_request', 'malformed HTTP request'];
  }
}

/** Answers 403 without reading the body; the connection closes after it. */
function refuseHost(req: IncomingMessage, res: ServerResponse, host: string): void {
  const body = hostRefusal(host);
  res.writeHead(403, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  });
  res.end(body);
  req.resume();
}

/** decodeURIComponent that keeps a malformed segment as it is instead of throwing. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Starts a node:http server with limits, bound to loopback unless told otherwise.
 * @example const srv = await startServer({ handler, port: 0 }); console.log(srv.url);
 */
/**
 * Why a server could not listen, in one line: no descriptor left for the socket is the
 * machine's limit (exit 5); a port in use says how to pick another.
 */
function listenError(
  error: NodeJS.ErrnoException,
  host: string,
  options: Pick<StartServerOptions, 'port' | 'portFlag'>,
): SvcError {
  const at = `${host}:${options.port ?? 0}`;
  if (isFileLimitError(error))
    return new SvcError(
      'SVC_E_FILE_LIMIT',
      `Could not listen on ${at}: ${describeFileLimit(fileLimit(), error.code ?? 'EMFILE')}.`,
      undefined,
      { cause: error },
    );
  const flag = options.portFlag ?? '--port';
  return new SvcError(
    error.code === 'EADDRINUSE' ? 'SVC_E_PORT_IN_USE' : 'SVC_E_LISTEN',
    `Could not listen on ${at}: ${systemReason(error)}.`,
    error.code === 'EADDRINUSE'
      ? `Pick another ${flag}, or ${flag} 0 for any free port. An earlier \`svc-cli … &\` may still hold it: \`jobs\` lists this shell's, \`kill %N\` stops one.`
      : undefined,
    { cause: error },
  );
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const sockets = new Set<Socket>();
  const headersTimeout = limits.headersTimeoutMs;
  const serverOptions = {
    headersTimeout,
    // node rejects a request timeout below the headers timeout
    requestTimeout: Math.max(limits.requestTimeoutMs, headersTimeout),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // node checks both timeouts on this interval (default 30 s): a dribbling client would
    // outlive a 10 s headers timeout threefold without it
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
  const hostAllowed = createHostCheck(host, options.allowedHosts);
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // DNS rebinding (docs/SECURITY.md): one string compare for a client seen before
    const requestHost = req.headers.host;
    if (!hostAllowed(requestHost)) {
      refuseHost(req, res, requestHost ?? '');
      options.onHostRefused?.(requestHost ?? '', req);
      return;
    }
    let result: void | Promise<void>;
    try {
      result = options.handler(req, res, (error) => failRequest(error, req, res));
    } catch (error) {
      failRequest(error, req, res);
      return;
    }
    if (result instanceof Promise) result.catch((error: unknown) => failRequest(error, req, res));
  };
  const server: Server = options.tls
    ? createHttpsServer(
        { ...serverOptions, key: options.tls.key, cert: options.tls.cert },
        onRequest,
      )
    : createServer(serverOptions, onRequest);
  const failRequest = (error: unknown, req: IncomingMessage, res: ServerResponse): void => {
    options.onHandlerError?.(error, req);
    if (res.headersSent && !res.writableEnded && !res.destroyed) {
      // the answer may be queued to be written at the end of this turn (endInBatch): let it
      // go out first, and cut the response only if it did not
      setImmediate(() => {
        if (!res.writableEnded) res.destroy();
      });
      return;
    }
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody('internal', 'svc-cli failed to handle this request')));
    } else {
      res.destroy();
    }
  };
  // under a low file limit the connections get what the journal and the deliveries leave:
  // node closes a connection beyond the budget at once ('drop') instead of the process
  // running out of descriptors for everything (libuv then resets pending connections
  // unseen, and a write of the journal or a delivery fails)
  const { budget, byFiles } = connectionBudget(limits.maxConnections, fileLimit().soft);
  server.maxConnections = budget;
  server.on('drop', () =>
    noteRefusal({ reason: byFiles ? 'file-limit' : 'max-connections', budget }),
  );
  // https: a client that fails the handshake (an untrusted certificate) is dropped quietly
  if (options.tls) server.on('tlsClientError', (_error: Error, socket: Socket) => socket.destroy());
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A malformed request line or headers, or a client too slow: answer with a JSON error
  // instead of letting node drop the socket silently.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const [status, text, code, message] = clientErrorAnswer(error.code);
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n` +
        JSON.stringify(errorBody(code, message)),
    );
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void =>
      reject(listenError(error, host, options));
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      // after listen, node reports an accept that failed (EMFILE, ENFILE: libuv could not
      // even reset the connection) as an 'error': without a listener, the process would end
      server.on('error', (error: NodeJS.ErrnoException) => {
        noteRefusal({
          reason: isFileLimitError(error) ? 'file-limit' : 'max-connections',
          ...(error.code === undefined ? {} : { code: error.code }),
          budget,
        });
      });
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    server,
    close(graceMs = 1000) {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        const destroyAll = (): void => {
          for (const socket of sockets) socket.destroy();
        };
        // no grace: at once, not a timer turn (>= 1 ms) later
        if (graceMs <= 0) destroyAll();
        else setTimeout(destroyAll, graceMs).unref();
      });
      return closing;
    },
  };
}
