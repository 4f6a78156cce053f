/**
 * The in-process transport: the embedded world's platform and roles answer each
 * other without sockets. A serving side mounts a handler under an origin of its own
 * (`http://listen-3.in-process.invalid`, a reserved name no resolver answers); `postJson` and
 * `getText` (client.ts) hand a request for such an origin to the handler, which answers through
 * a `ReplyWire` as it would on a socket. What a client sees is what a socket would give it: the
 * whole reply, a reset (ECONNRESET), a refusal once unmounted (ECONNREFUSED), or its own
 * timeout while a reply hangs or trickles. Real peers and the serving commands keep sockets.
 */
import {
  DEFAULT_BODY_LIMIT,
  parseJsonBody,
  tooLarge,
  type BodyResult,
  type TransferMode,
} from './body.js';
import type { OutgoingHeaders, ReplyWire } from './wire.js';
import { errorBody } from '../wire-errors.js';

export interface InProcessRequest {
  method: string;
  /** the whole URL as the client named it */
  url: string;
  /** path and query, as `req.url` on a socket */
  target: string;
  /** lower-case names, as on a socket */
  headers: Record<string, string>;
  /** the body text (absent for GET) */
  body: string | undefined;
  transfer: TransferMode;
}

/** A serving side's answer to one request: through the wire, as over a socket. */
export type InProcessHandler = (request: InProcessRequest, wire: ReplyWire) => unknown;

export interface InProcessReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A mounted handler: its URL, and `close` to unmount. Requests still open are reset at once
 * (`graceMs` is not waited: the embedded world closes after its steps, when nothing on the
 * way can change a report).
 */
export interface Mounted {
  readonly url: string;
  close(graceMs?: number): Promise<void>;
}

const SUFFIX = '.in-process.invalid';
interface Mount {
  handler: InProcessHandler;
  onError: ((error: unknown) => void) | undefined;
  /** cuts each exchange still waiting for its reply */
  open: Set<() => void>;
}
const mounts = new Map<string, Mount>();
let counter = 0;

/**
 * Serves `handler` in process under a fresh origin; `name` says who (`listen`, `platform`).
 * @example const m = mountInProcess('hooks', handler); await postJson({ url: `${m.url}/hooks`, ... });
 */
export function mountInProcess(
  name: string,
  handler: InProcessHandler,
  onHandlerError?: (error: unknown) => void,
): Mounted {
  const url = `http://${name}-${++counter}${SUFFIX}`;
  const mount: Mount = { handler, onError: onHandlerError, open: new Set() };
  mounts.set(url, mount);
  return {
    url,
    close() {
      mounts.delete(url);
      // as a server closing its sockets: what still waits for a reply is cut off
      for (const cut of [...mount.open]) cut();
      return Promise.resolve();
    },
  };
}

/** The origin of an in-process URL, or undefined for any other URL. */
function originOf(url: string): string | undefined {
  if (!url.startsWith('http://')) return undefined;
  const end = url.indexOf('/', 7);
  const origin = end === -1 ? url : url.slice(0, end);
  return origin.endsWith(SUFFIX) ? origin : undefined;
}

/** True when `url` names the in-process transport (mounted or not). */
export const isInProcessUrl = (url: string): boolean => originOf(url) !== undefined;

const socketError = (code: string, message: string): Error =>
  Object.assign(new Error(message), { code });

/** An exchange under way: its reply, and `abort` for a client that gives up. */
export interface InProcessCall {
  readonly reply: Promise<InProcessReply>;
  /** the client gives up: the reply rejects with `reason`, the serving side hears it */
  abort(reason: Error): void;
}

/**
 * One exchange with a mounted handler. The reply resolves with the whole answer; it rejects as
 * a socket would: ECONNREFUSED when nothing is mounted there, ECONNRESET on a reset or when
 * the serving side closes first, the reason given to `abort` when the client gives up.
 * @example const call = callInProcess(url, { method: 'POST', body: '{}', headers: {} }); await call.reply;
 */
export function callInProcess(
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string | undefined;
    chunked?: boolean;
    /**
     * a streamed answer (server-sent events) piece by piece as the serving side writes it;
     * the reply then resolves at the stream's end with the head and an empty body
     */
    onPiece?: (piece: string) => void;
  },
): InProcessCall {
  const origin = originOf(url) ?? '';
  const mount = mounts.get(origin);
  if (!mount)
    return {
      reply: Promise.reject(socketError('ECONNREFUSED', `connect ECONNREFUSED ${origin}`)),
      abort: () => undefined,
    };
  const transfer: TransferMode =
    init.body === undefined ? 'none' : init.chunked ? 'chunked' : 'content-length';
  const headers: Record<string, string> = { host: origin.slice('http://'.length) };
  for (const key in init.headers) headers[key.toLowerCase()] = init.headers[key] as string;
  if (transfer === 'chunked') headers['transfer-encoding'] = 'chunked';
  else if (init.body !== undefined)
    headers['content-length'] = String(Buffer.byteLength(init.body));
  const target = url.slice(origin.length) || '/';
  let abort: (reason: Error) => void = () => undefined;
  const reply = new Promise<InProcessReply>((resolve, reject) => {
    let done = false;
    let sent = false;
    let head: { status: number; headers: Record<string, string> } | undefined;
    let pieces: string[] = [];
    const closers = new Set<() => void>();
    const settle = (finish: () => void): void => {
      if (done) return;
      done = true;
      mount.open.delete(cut);
      finish();
    };
    const goneAway = (): void => {
      for (const fn of [...closers]) fn();
    };
    abort = (reason) => {
      if (done) return;
      settle(() => reject(reason));
      goneAway();
    };
    const cut = (): void => {
      settle(() => reject(socketError('ECONNRESET', 'socket hang up')));
      goneAway();
    };
    mount.open.add(cut);
    const wire: ReplyWire = {
      send(status, body, extra = {}) {
        if (sent || done) return;
        sent = true;
        const replyHeaders = {
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          ...extra,
        };
        settle(() => resolve({ status, headers: replyHeaders, body }));
      },
      start(status, extra) {
        if (sent || done) return;
        sent = true;
        head = { status, headers: flatOutgoing(extra) };
        pieces = [];
      },
      write(bytes) {
        if (done) return;
        const piece = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
        if (init.onPiece) init.onPiece(piece);
        else pieces.push(piece);
      },
      end() {
        const started = head;
        if (started) settle(() => resolve({ ...started, body: pieces.join('') }));
      },
      reset() {
        cut();
      },
      hang() {
        // nothing: the client's own timeout (or the signal) ends it
      },
      onClose(fn) {
        closers.add(fn);
        return () => closers.delete(fn);
      },
    };
    const request: InProcessRequest = {
      method: init.method,
      url,
      target,
      headers,
      body: init.body,
      transfer,
    };
    // a handler that throws answers 500 and the mount keeps serving (as startServer does)
    const failed = (error: unknown): void => {
      mount.onError?.(error);
      if (!sent)
        wire.send(
          500,
          JSON.stringify(errorBody('internal', 'svc-cli failed to handle this request')),
          { 'content-type': 'application/json' },
        );
      else cut();
    };
    // the handler starts once the caller's code has run on, as a request on a socket arrives
    // later: no serving code runs inside the client's call
    queueMicrotask(() => {
      if (done) return;
      try {
        const result = mount.handler(request, wire);
        if (result instanceof Promise) result.catch(failed);
      } catch (error) {
        failed(error);
      }
    });
  });
  return { reply, abort: (reason) => abort(reason) };
}

/** Reply headers one string each, as a client reads them (a repeated header joined). */
function flatOutgoing(headers: OutgoingHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name] as string | readonly string[];
    out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/**
 * The request body as the socket adapters read it: over `limit` a 413, else JSON or the 400
 * of an empty or malformed body.
 * @example const body = bodyOf(request); if (body.ok) use(body.json);
 */
export function bodyOf(request: InProcessRequest, limit = DEFAULT_BODY_LIMIT): BodyResult {
  const raw = request.body ?? '';
  const bytes = Buffer.byteLength(raw);
  if (bytes > limit) return tooLarge(limit, request.transfer);
  return parseJsonBody(raw, request.transfer, bytes);
}
