import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { getGlobalDispatcher, util, type Dispatcher } from 'undici';

const { parseHeaders } = util;
import type { Clock } from '../clock.js';
import { offAbort, onAbort } from '../io/on-abort.js';
import { callInProcess, isInProcessUrl } from './in-process.js';
import { caHint } from './trusted-ca.js';

export interface PostJsonOptions {
  url: string;
  /** the JSON text to send */
  body: string;
  /** send with Transfer-Encoding: chunked instead of Content-Length (spec 4.2) */
  chunked?: boolean;
  headers?: Record<string, string>;
  /** protocol-time limit for the whole exchange (status, headers and body) */
  timeoutMs: number;
  clock: Clock;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  /** largest response body read, in bytes (default 1 MiB) */
  maxResponseBytes?: number;
  /**
   * settle on the final status and headers, with an empty body, and stop reading (a file's
   * size from a GET, file-size.ts); over a socket only
   */
  headersOnly?: boolean;
}

/** Why an exchange produced no HTTP response. */
export type FailureReason =
  | 'timeout'
  | 'refused'
  | 'reset'
  | 'unreachable'
  /** HTTPS: the server's certificate is not trusted */
  | 'untrusted'
  /** HTTPS: the handshake failed (the server speaks plain HTTP, or no TLS this side accepts) */
  | 'tls'
  | 'aborted'
  | 'error';

/** A TLS failure in one line: what went wrong and the way out, without OpenSSL's words. */
export interface TlsProblem {
  /** the node/OpenSSL code, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT` */
  code: string;
  /** a certificate this side does not accept (`untrusted`), or the handshake itself (`tls`) */
  reason: 'untrusted' | 'tls';
  message: string;
}

const SKIP_CHECK = 'or --insecure to skip the check';

/**
 * What went wrong in a TLS connection, found along `cause` (undici wraps node's error, and
 * node's carries OpenSSL's text: "ssl3_get_record:wrong version number"); undefined for any
 * other failure.
 * @example tlsProblem(error)?.message // "the server speaks plain HTTP, not TLS: use http://..."
 */
export function tlsProblem(error: unknown): TlsProblem | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const { code, message, cert } = current as {
      code?: unknown;
      message?: unknown;
      cert?: { subjectaltname?: unknown };
    };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string' || /SSL routines/.test(text)) {
      const found = describeTls(typeof code === 'string' ? code : '', text, cert?.subjectaltname);
      if (found) return found;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeTls(code: string, text: string, names: unknown): TlsProblem | undefined {
  const untrusted = (message: string): TlsProblem => ({ code, reason: 'untrusted', message });
  // an https:// URL at a port that answers plain HTTP: OpenSSL reads "HTTP/1.1" as a record
  if (
    /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/.test(code) ||
    /wrong version number|packet length too long/.test(text)
  )
    return {
      code: code || 'ERR_SSL_WRONG_VERSION_NUMBER',
      reason: 'tls',
      message: 'the server speaks plain HTTP, not TLS: use an http:// URL instead of https://',
    };
  if (/SELF_SIGNED/.test(code))
    return untrusted(
      `the server's certificate is self-signed (${code}): ${caHint('it')}, ${SKIP_CHECK}`,
    );
  if (code === 'CERT_HAS_EXPIRED')
    return untrusted(
      `the server's certificate has expired (${code}): renew it on the server, ${SKIP_CHECK}`,
    );
  if (code === 'CERT_NOT_YET_VALID')
    return untrusted(
      `the server's certificate is not valid yet (${code}): check both clocks, ${SKIP_CHECK}`,
    );
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const listed = typeof names === 'string' && names ? ` (it names ${names})` : '';
    return untrusted(
      `the server's certificate is for another host name${listed}: use a host name it names, ${SKIP_CHECK}`,
    );
  }
  if (/CERT|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code))
    return untrusted(untrustedMessage(code));
  if (code === 'ERR_TLS_HANDSHAKE_TIMEOUT')
    return {
      code,
      reason: 'tls',
      message:
        'the TLS handshake did not finish in time: check that the server serves HTTPS on this port (for plain HTTP use http://)',
    };
  if (/^ERR_SSL_|^ERR_TLS_/.test(code) || /SSL routines/.test(text))
    return {
      code: code || 'ERR_SSL',
      reason: 'tls',
      message: `the TLS handshake failed (${code || 'OpenSSL error'}): check that the server serves HTTPS on this port, with a TLS version node supports`,
    };
  return undefined;
}

/** The node/OpenSSL code of a certificate the client does not trust, found along `cause`. */
export function certificateProblem(error: unknown): string | undefined {
  const problem = tlsProblem(error);
  return problem?.reason === 'untrusted' ? problem.code : undefined;
}

/** The one line an untrusted certificate gets, naming both ways out. */
export const untrustedMessage = (code: string): string =>
  `the server's certificate is not trusted (${code}): ${caHint('its CA')}, ${SKIP_CHECK}`;

export type PostOutcome =
  | {
      ok: true;
      status: number;
      headers: Record<string, string>;
      body: string;
      /** protocol ms */
      durationMs: number;
      wallMs: number;
    }
  | { ok: false; reason: FailureReason; message: string; durationMs: number; wallMs: number };

class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * POSTs JSON and classifies what happened; never throws for network trouble. The timeout
 * runs on the injected clock, so `--time-scale` and virtual clocks apply to it.
 * @example const out = await postJson({ url, body: '{}', timeoutMs: 3000, clock });
 */
export function postJson(options: PostJsonOptions): Promise<PostOutcome> {
  return exchange('POST', options);
}

export type GetTextOptions = Omit<PostJsonOptions, 'body' | 'chunked'>;

/**
 * GETs a URL and classifies what happened, like `postJson` (status endpoint, spec 4.1).
 * @example const out = await getText({ url: `${channelUrl}/status`, timeoutMs: 3000, clock });
 */
export function getText(options: GetTextOptions): Promise<PostOutcome> {
  return exchange('GET', options);
}

/**
 * HEADs a URL: the status and headers, no body (a media file's size, file-size.ts).
 * @example const out = await headOf({ url: 'https://cdn.example/cat.jpg', timeoutMs: 3000, clock });
 */
export function headOf(options: GetTextOptions): Promise<PostOutcome> {
  return exchange('HEAD', options);
}

type Method = 'GET' | 'HEAD' | 'POST';

function exchange(
  method: Method,
  options: GetTextOptions & { body?: string; chunked?: boolean },
): Promise<PostOutcome> {
  const outcome = isInProcessUrl(options.url)
    ? exchangeInProcess(method, options)
    : exchangeOverSocket(method, options);
  const observe = replyObservers.getStore();
  if (observe === undefined) return outcome;
  return outcome.then((reply) => {
    if (reply.ok) observe({ url: options.url, headers: reply.headers });
    return reply;
  });
}

/** What `observeReplies` hears of each reply. */
export interface ObservedReply {
  url: string;
  headers: Readonly<Record<string, string>>;
}

const replyObservers = new AsyncLocalStorage<(reply: ObservedReply) => void>();

/**
 * Runs `work`; `observe` hears the headers of every reply an exchange started within it gets
 * (conform reads there which svc-cli role a failing peer is, without a request of its own).
 * @example await observeReplies((r) => seen.push(r.headers), () => runCases(cases, options));
 */
export function observeReplies<T>(
  observe: (reply: ObservedReply) => void,
  work: () => Promise<T>,
): Promise<T> {
  return replyObservers.run(observe, work);
}

/** Protocol and wall time since now on `clock`: the times every exchange outcome carries. */
function elapsedOn(clock: Clock): () => { durationMs: number; wallMs: number } {
  const started = clock.now();
  const wallStarted = clock.wallNow();
  return () => ({ durationMs: clock.now() - started, wallMs: clock.wallNow() - wallStarted });
}

/** The outcome of an exchange its caller cancelled before it was sent. */
const cancelled = (elapsed: () => { durationMs: number; wallMs: number }): PostOutcome => ({
  ok: false,
  reason: 'aborted',
  message: 'the request was cancelled',
  ...elapsed(),
});

/**
 * `exchange` over a socket, through undici's `dispatch` with a handler of our own:
 * `request()` would add, per exchange, a body stream, an end-of-stream watcher and an
 * AbortController; the bot round trip makes three of these exchanges, and their garbage set
 * how often the young generation was collected. The outcomes are the same: the timeout (on
 * the injected clock) and the caller's signal abort the exchange, and a body over the limit
 * ends it as an error.
 */
function exchangeOverSocket(
  method: Method,
  options: GetTextOptions & { body?: string; chunked?: boolean },
): Promise<PostOutcome> {
  const { clock, signal } = options;
  const elapsed = elapsedOn(clock);
  // a caller that already stopped sends nothing (its abort event will not fire again)
  if (signal?.aborted) return Promise.resolve(cancelled(elapsed));
  const work = new Promise<PostOutcome>((resolve) => {
    const text = options.body;
    const limit = options.maxResponseBytes ?? 1024 * 1024;
    // why the exchange was stopped from this side; the outcome names it, not undici's error
    let stopped: FailureReason | undefined;
    let abort: ((error: Error) => void) | undefined;
    // an abort before undici started the request is applied when it starts, as request() does
    let pending: Error | undefined;
    const stop = (why: FailureReason, error: Error): void => {
      if (stopped !== undefined) return;
      stopped = why;
      if (abort) abort(error);
      // still queued (behind a busy connection, or a connect): undici drops it when it would
      // start it, and the outcome comes then, as with request(). Not sooner: until then the
      // request holds its place in the outbound limiter, which is the backpressure under load
      // (answering at once let the queue grow: timeouts 1,587 -> 3,619 in 10k loaded messages)
      else pending = error;
    };
    const timer = clock.setTimer(options.timeoutMs, () =>
      stop('timeout', new TimeoutError(`no complete reply within ${options.timeoutMs} ms`)),
    );
    const onOuterAbort = (): void =>
      stop('aborted', signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal) onAbort(signal, onOuterAbort);
    let done = false;
    const settle = (outcome: PostOutcome): void => {
      if (done) return;
      done = true;
      timer.cancel();
      if (signal) offAbort(signal, onOuterAbort);
      resolve(outcome);
    };
    const fail = (error: unknown): void =>
      settle({ ok: false, ...failureOf(stopped, error, options.timeoutMs), ...elapsed() });
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    // the handler methods every undici speaks: the global dispatcher may be the one Node's own
    // fetch installed (its bundled undici), which knows no others
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        abort = abortRequest;
        if (pending) abortRequest(pending);
      },
      onHeaders(statusCode, rawHeaders) {
        if (statusCode < 200) return true; // 1xx: the final response follows
        status = statusCode;
        headers = flattenHeaders(parseHeaders(rawHeaders));
        if (options.headersOnly) {
          settle({ ok: true, status, headers, body: '', ...elapsed() });
          abort?.(new Error('headers only: the body is not read'));
          return false;
        }
        return true;
      },
      onData(chunk) {
        size += chunk.length;
        if (size > limit) {
          abort?.(replyTooLarge(limit));
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        const body = Buffer.concat(chunks, size).toString('utf8');
        const behindProxy = proxyFailureOf(headers, body);
        settle(
          behindProxy
            ? { ok: false, ...behindProxy, ...elapsed() }
            : { ok: true, status, headers, body, ...elapsed() },
        );
      },
      onError(error) {
        fail(error);
      },
    };
    try {
      const target = dispatchTarget(options.url);
      (options.dispatcher ?? getGlobalDispatcher()).dispatch(
        {
          origin: target.origin,
          path: target.path,
          method,
          body:
            text === undefined
              ? null
              : options.chunked
                ? Readable.from([Buffer.from(text)], { objectMode: false })
                : text,
          headers:
            text === undefined
              ? { ...options.headers }
              : { 'content-type': 'application/json', ...options.headers },
        },
        handler,
      );
    } catch (error) {
      fail(error);
    }
  });
  return clock.track(work);
}

/** Where a URL is dispatched: undici's origin and path. */
interface DispatchTarget {
  origin: string;
  path: string;
}

/**
 * The last URLs parsed for dispatch: a simulator posts to the same few peers all
 * the time, and a URL object per exchange was garbage the young generation collected.
 */
const targets = new Map<string, DispatchTarget>();
const TARGETS_KEPT = 256;

/** The origin and path of an http(s) URL; throws for another protocol or a malformed URL. */
function dispatchTarget(text: string): DispatchTarget {
  const known = targets.get(text);
  if (known) return known;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('Invalid URL protocol: the URL must start with `http:` or `https:`.');
  const target = { origin: url.origin, path: `${url.pathname}${url.search}` };
  if (targets.size >= TARGETS_KEPT) targets.clear();
  targets.set(text, target);
  return target;
}

/**
 * A reply's headers as one string each (repeated headers joined with ", "): the same object
 * when no header repeats (undici's parse made it for this reply alone).
 */
function flattenHeaders(headers: Record<string, string | string[] | undefined>) {
  let repeated = false;
  for (const key in headers) {
    if (typeof headers[key] !== 'string') {
      repeated = true;
      break;
    }
  }
  if (!repeated) return headers as Record<string, string>;
  const flat: Record<string, string> = {};
  for (const key in headers) {
    const value = headers[key];
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

const replyTooLarge = (limit: number): Error =>
  Object.assign(new Error(`reply body larger than ${limit} bytes`), {
    code: 'SVC_REPLY_TOO_LARGE',
  });

/** Why an in-process call was abandoned (one for the process: no stack per timeout). */
const GAVE_UP = new Error('the client gave up');

/**
 * `exchange` for the embedded world: the same exchange, timeout and outcomes
 * without a socket (src/http/in-process.ts), and without an AbortController per request.
 */
function exchangeInProcess(
  method: Method,
  options: GetTextOptions & { body?: string; chunked?: boolean },
): Promise<PostOutcome> {
  const { clock, signal } = options;
  const elapsed = elapsedOn(clock);
  if (signal?.aborted) return Promise.resolve(cancelled(elapsed));
  const text = options.body;
  // the outcome says why it stopped; the reason given to the call is never shown
  let stopped: FailureReason | undefined;
  // the timeout is set before the handler runs, as over a socket: of two timers due at the
  // same protocol instant, the client's fires first
  const timer = clock.setTimer(options.timeoutMs, () => {
    stopped = 'timeout';
    call.abort(GAVE_UP);
  });
  const onOuterAbort = (): void => {
    stopped = 'aborted';
    call.abort(GAVE_UP);
  };
  if (signal) onAbort(signal, onOuterAbort);
  // (neither callback can run before this line: timers and the signal fire on later turns)
  const call = callInProcess(options.url, {
    method,
    headers:
      text === undefined
        ? { ...options.headers }
        : { 'content-type': 'application/json', ...options.headers },
    body: text,
    ...(options.chunked ? { chunked: true } : {}),
  });
  const limit = options.maxResponseBytes ?? 1024 * 1024;
  const work = call.reply.then(
    (reply): PostOutcome =>
      Buffer.byteLength(reply.body) > limit
        ? { ok: false, reason: 'error', message: replyTooLarge(limit).message, ...elapsed() }
        : { ok: true, ...reply, ...elapsed() },
    (error: unknown): PostOutcome => ({
      ok: false,
      ...failureOf(stopped, error, options.timeoutMs),
      ...elapsed(),
    }),
  );
  return clock.track(
    work.finally(() => {
      timer.cancel();
      if (signal) offAbort(signal, onOuterAbort);
    }),
  );
}

/**
 * Why an exchange failed: the reason this side stopped it for (its timeout, the caller's
 * cancel), else what the error says. Shared by the socket and in-process exchanges.
 */
function failureOf(
  stopped: FailureReason | undefined,
  error: unknown,
  timeoutMs: number,
): { reason: FailureReason; message: string } {
  if (stopped === 'timeout')
    return { reason: 'timeout', message: `no complete reply within ${timeoutMs} ms` };
  if (stopped === 'aborted') return { reason: 'aborted', message: 'the request was cancelled' };
  return classifyFailure(error);
}

// the proxy's own limit (--upstream-timeout) or its trust of the upstream's certificate are
// not this command's --timeout or --ca: those come back as 'error', the message says which
const PROXY_REASONS: Readonly<Record<string, FailureReason>> = {
  refused: 'refused',
  reset: 'reset',
  unreachable: 'unreachable',
};

/**
 * An answer `svc-cli proxy` gave itself because the party behind it could not be reached
 * (`x-svc-proxy-reason`): that party's failure, not an HTTP answer of its own.
 */
function proxyFailureOf(
  headers: Readonly<Record<string, string>>,
  body: string,
): { reason: FailureReason; message: string } | undefined {
  const why = headers['x-svc-proxy-reason'];
  if (why === undefined) return undefined;
  let said = '';
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') said = message.replace(/^svc-cli proxy: /, '');
  } catch {
    // the reason header alone says enough
  }
  return {
    reason: PROXY_REASONS[why] ?? 'error',
    message: `through svc-cli proxy: ${said || why}`,
  };
}

/** Maps undici / socket errors onto the reasons a delivery report names. */
export function classifyFailure(
  error: unknown,
  signal?: AbortSignal,
): { reason: FailureReason; message: string } {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  if (reason instanceof TimeoutError) return { reason: 'timeout', message: reason.message };
  if (signal?.aborted) return { reason: 'aborted', message: 'the request was cancelled' };
  const err = error as {
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  const code = err.code ?? err.cause?.code ?? '';
  const message = err.cause?.message ?? err.message ?? String(error);
  const tls = tlsProblem(error);
  if (tls !== undefined) return { reason: tls.reason, message: tls.message };
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      // undici's connect timeout covers the TLS handshake: a port that accepts and never
      // answers it (not a TLS server) ends here
      return {
        reason: 'timeout',
        message:
          'the connection did not complete in time (for an https:// URL, the TLS handshake: check that the server serves HTTPS on this port)',
      };
    case 'ECONNREFUSED':
      return { reason: 'refused', message: 'connection refused' };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { reason: 'reset', message: 'the connection was reset or closed before a reply' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { reason: 'unreachable', message: `host unreachable (${code})` };
    default:
      return { reason: 'error', message };
  }
}
