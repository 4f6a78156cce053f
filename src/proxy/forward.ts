/**
 * The upstream side of the proxy: the request read within the limit, forwarded with undici
 * (hop-by-hop headers dropped, framing kept, the timeout on the proxy's clock), the answer
 * written back as received, and the proxy's own 502 / 504 JSON errors.
 */
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { tlsProblem } from '../http/client.js';
import type { OutgoingHeaders, ReplyWire } from '../http/wire.js';
import { errorBody, type WireErrorCode } from '../wire-errors.js';

/** Hop-by-hop headers (RFC 9110 7.6.1) and the framing the forwarder sets again itself. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

export function forwardHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

export function flat(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `<upstream>` + the rest of the proxy path + the query, without doubled slashes. */
export function upstreamUrlOf(upstream: string, rest: string, search: string): string {
  const base = upstream.replace(/\/+$/, '');
  const tail = rest === '' || rest === '/' ? '' : rest.startsWith('/') ? rest : `/${rest}`;
  return `${base}${tail}${search}`;
}

/**
 * The proxy's own answer (not the upstream's): `x-svc-proxy` names it, and for an upstream that
 * could not be reached `x-svc-proxy-reason` says how (refused, reset, timeout, ...), so svc-cli's
 * own clients report the party behind the proxy as unreachable, not a 502 as its answer.
 */
export function sendError(
  wire: ReplyWire,
  status: number,
  code: WireErrorCode,
  message: string,
  reason?: string,
): string {
  const body = JSON.stringify(errorBody(code, message));
  wire.send(status, body, {
    'x-svc-proxy': code,
    ...(reason === undefined ? {} : { 'x-svc-proxy-reason': reason }),
  });
  return body;
}

function failureOf(error: unknown): { status: 502 | 504; reason: string; message: string } {
  if (error instanceof Error && error.name === 'CallerGone')
    return {
      status: 504,
      reason: 'caller-gone',
      message: 'the caller gave up waiting (its own timeout) before the upstream answered',
    };
  const code = (error as { code?: string; cause?: { code?: string } }).code;
  const causeCode = (error as { cause?: { code?: string } }).cause?.code;
  const any = `${code ?? ''} ${causeCode ?? ''}`;
  const message = error instanceof Error ? error.message : String(error);
  if (/TIMEOUT/.test(any) || (error instanceof Error && error.name === 'TimeoutError'))
    return { status: 504, reason: 'timeout', message: 'the upstream did not answer in time' };
  if (/ECONNREFUSED/.test(any))
    return { status: 502, reason: 'refused', message: 'the upstream refused the connection' };
  if (/ECONNRESET|UND_ERR_SOCKET/.test(any))
    return { status: 502, reason: 'reset', message: 'the upstream closed the connection' };
  if (/ENOTFOUND|EAI_AGAIN/.test(any))
    return { status: 502, reason: 'unreachable', message: 'the upstream host is unknown' };
  const tls = tlsProblem(error);
  if (tls !== undefined) return { status: 502, reason: tls.reason, message: tls.message };
  return { status: 502, reason: 'error', message };
}

export interface ForwardInput {
  /** aborts when the caller closed its connection before the answer */
  callerSignal: AbortSignal;
  method: string;
  upstream: string;
  headers: Record<string, string | string[]>;
  body: Buffer | undefined;
  chunked: boolean;
  timeoutMs: number;
  clock: Clock;
  dispatcher: Dispatcher | undefined;
}

export type Forwarded =
  | {
      ok: true;
      status: number;
      rawHeaders: Record<string, string | string[]>;
      headers: Record<string, string>;
      chunked: boolean;
      body: Buffer;
    }
  | { ok: false; failure: { status: 502 | 504; reason: string; message: string } };

class CallerGone extends Error {
  override readonly name = 'CallerGone';
}

/** One upstream exchange; the timeout runs on the proxy's clock (`--time-scale`). */
export async function forward(input: ForwardInput): Promise<Forwarded> {
  const controller = new AbortController();
  const timer = input.clock.setTimer(input.timeoutMs, () => {
    const error = new Error('upstream timeout');
    error.name = 'TimeoutError';
    controller.abort(error);
  });
  const onCallerGone = (): void =>
    controller.abort(new CallerGone('the caller closed the connection before the answer'));
  input.callerSignal.addEventListener('abort', onCallerGone, { once: true });
  try {
    const body =
      input.body === undefined
        ? null
        : input.chunked
          ? Readable.from([input.body], { objectMode: false })
          : input.body;
    const response = await input.clock.track(
      request(input.upstream, {
        method: input.method,
        headers: input.headers,
        body,
        signal: controller.signal,
        ...(input.dispatcher ? { dispatcher: input.dispatcher } : {}),
      }),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const rawHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) rawHeaders[name] = value;
    }
    const te = response.headers['transfer-encoding'];
    return {
      ok: true,
      status: response.statusCode,
      rawHeaders,
      headers: flat(rawHeaders),
      chunked: typeof te === 'string' && /chunked/i.test(te),
      body: Buffer.concat(chunks),
    };
  } catch (error) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
    return { ok: false, failure: failureOf(reason) };
  } finally {
    timer.cancel();
    input.callerSignal.removeEventListener('abort', onCallerGone);
  }
}

/** The upstream's answer to the caller as received: status, headers, framing, body. */
export function writeAnswer(wire: ReplyWire, answer: Extract<Forwarded, { ok: true }>): void {
  const headers: OutgoingHeaders = {};
  for (const [name, value] of Object.entries(answer.rawHeaders)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  // as received: chunked framing (node frames the body when this header is set), or the length
  if (answer.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(answer.body.length);
  wire.start(answer.status, headers);
  if (answer.body.length > 0) wire.write(answer.body);
  wire.end();
}
