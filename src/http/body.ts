import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorText } from '../errors.js';
import { endInBatch } from './response-batch.js';

/** Default request body limit: 1 MiB, answered with 413 beyond. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** An oversized body is read and dropped up to 16 x the limit (at least 16 MiB), then cut. */
const DISCARD_CAP = 16 * 1024 * 1024;

export type TransferMode = 'content-length' | 'chunked' | 'none';

export type BodyResult =
  | { ok: true; raw: string; json: unknown; transfer: TransferMode; bytes: number }
  | {
      ok: false;
      status: 400 | 413 | 415;
      code: 'body_too_large' | 'invalid_json' | 'invalid_encoding' | 'empty_body' | 'aborted';
      message: string;
      raw?: string;
      transfer: TransferMode;
    };

/** Request headers as one string each (repeated headers joined), for journals and services. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers = req.headers;
  let flat = true;
  for (const key in headers) {
    if (typeof headers[key] !== 'string') {
      flat = false;
      break;
    }
  }
  // node joins most repeated headers itself: usually there is nothing to copy
  if (flat) return headers as Record<string, string>;
  const out: Record<string, string> = {};
  for (const key in headers) {
    const value = headers[key];
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** How the client framed its body (spec 4.2: Content-Length or chunked). */
export function transferModeOf(req: IncomingMessage): TransferMode {
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && /chunked/i.test(te)) return 'chunked';
  if (req.headers['content-length'] !== undefined) return 'content-length';
  return 'none';
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON body with a size limit; never throws. Over the limit: 413 once the rest of the
 * body (up to a cap) has been read and dropped; bad UTF-8 or JSON: 400 with the parser's
 * position.
 * @example const body = await readJsonBody(req, { limit: 1024 }); if (body.ok) use(body.json);
 */
export function readJsonBody(
  req: IncomingMessage,
  options: { limit?: number } = {},
): Promise<BodyResult> {
  return new Promise((resolve) => readJsonBodyThen(req, options, resolve));
}

/**
 * `readJsonBody` with a callback, for a hot path that answers without promise hops (the
 * simulator's ingest). `done` is called exactly once.
 */
export function readJsonBodyThen(
  req: IncomingMessage,
  options: { limit?: number },
  done: (body: BodyResult) => void,
): void {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const transfer = transferModeOf(req);
  const declared = Number(req.headers['content-length']);
  // a 413 sent while the client still uploads reaches many clients as EPIPE or a
  // reset instead; the rest of an oversized body is read and dropped first, up to a cap
  const cap = Math.max(limit * 16, DISCARD_CAP);
  if (Number.isFinite(declared) && declared > cap) {
    req.resume();
    done(tooLarge(limit, transfer));
    return;
  }
  // Plain 'data' / 'end' listeners: an async iterator costs several promise hops per chunk.
  // They stay attached (the request is garbage after its answer); `settled` makes `done` once.
  const chunks: Buffer[] = [];
  let bytes = 0;
  let settled = false;
  const settle = (body: BodyResult): void => {
    if (settled) return;
    settled = true;
    done(body);
  };
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    bytes += chunk.length;
    if (bytes > limit) {
      chunks.length = 0; // the rest is read and dropped
      if (bytes > cap) settle(tooLarge(limit, transfer));
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () =>
    settle(bytes > limit ? tooLarge(limit, transfer) : decodeJsonBody(chunks, bytes, transfer)),
  );
  const onAbort = (): void =>
    settle({
      ok: false,
      status: 400,
      code: 'aborted',
      message: 'the request body was cut off',
      transfer,
    });
  req.on('error', onAbort);
  req.on('aborted', onAbort);
}

/** A body's bytes as a BodyResult: bad UTF-8, an empty body and bad JSON get their 400. */
export function decodeJsonBody(
  chunks: Buffer[],
  bytes: number,
  transfer: TransferMode,
): BodyResult {
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, bytes);
  let raw: string;
  try {
    raw = decoder.decode(buffer);
  } catch {
    return {
      ok: false,
      status: 400,
      code: 'invalid_encoding',
      message: invalidUtf8Message(buffer),
      transfer,
    };
  }
  return parseJsonBody(raw, transfer, bytes);
}

/**
 * The 400's text for a body that is not UTF-8 (RFC 8259 8.1: JSON between systems is UTF-8;
 * docs/FIDELITY.md, 4.2 Content-Type: the Chat API page asks for the JSON text in UTF-8):
 * the first byte that breaks it and the text before it, so the field is found. Such a byte is
 * most often text in a one-byte charset: an open-source Java bot written for the real platform
 * posts its JSON through a string entity without a charset, ISO-8859-1, so "café" arrives as
 * 0xE9 (and a Cyrillic text as question marks, which no server can tell).
 * @example invalidUtf8Message(Buffer.from('{"t":"caf\xe9"}', 'latin1'))
 * // 'the body is not valid UTF-8: byte 0xE9 at offset 9, after `{"t":"caf` (...)'
 */
export function invalidUtf8Message(buffer: Buffer): string {
  const at = firstInvalidUtf8(buffer);
  if (at < 0) return 'the body is not valid UTF-8';
  let start = Math.max(0, at - 24);
  while (start < at && ((buffer[start] as number) & 0xc0) === 0x80) start++;
  // the text as sent (JSON quoting would escape every quote of it), line breaks as spaces
  const before = buffer
    .subarray(start, at)
    .toString('utf8')
    .replace(/[\r\n\t]/g, ' ');
  const hex = (buffer[at] as number).toString(16).toUpperCase().padStart(2, '0');
  return `the body is not valid UTF-8: byte 0x${hex} at offset ${at}, after \`${start > 0 ? '...' : ''}${before}\` (JSON is UTF-8, RFC 8259 8.1); such a byte is most often text in ISO-8859-1 or Windows-1252: encode the body as UTF-8 (a Java StringEntity without a charset sends ISO-8859-1)`;
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len =
      b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0) return i;
    // the second byte's narrower ranges: no overlong forms, surrogates or code points past U+10FFFF
    const [lo, hi] =
      b === 0xe0
        ? [0xa0, 0xbf]
        : b === 0xed
          ? [0x80, 0x9f]
          : b === 0xf0
            ? [0x90, 0xbf]
            : b === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    for (let k = 1; k < len; k++) {
      const c = buf[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += len;
  }
  return -1;
}

/**
 * Whether a Content-Type names JSON (`application/json`, with parameters, or a `+json` type):
 * a body under another type is still read as JSON by the interfaces that take one, with a
 * warning. The two headers nearly every request carries are compared first (request handling).
 * @example isJsonContentType('application/json; charset=utf-8') // true
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === 'application/json' || contentType === 'application/json; charset=utf-8')
    return true;
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || type?.endsWith('+json') === true;
}

/**
 * The decoded text of a request body as a BodyResult: JSON, or a 400 for an empty body or
 * bad JSON (with the parser's position). Shared by the socket adapter and the msw handlers.
 * @example parseJsonBody('{"a":1}', 'content-length', 7) // { ok: true, json: { a: 1 }, ... }
 */
export function parseJsonBody(raw: string, transfer: TransferMode, bytes: number): BodyResult {
  if (raw.trim() === '') {
    return {
      ok: false,
      status: 400,
      code: 'empty_body',
      message: 'the body is empty; a JSON object is required',
      raw,
      transfer,
    };
  }
  try {
    return { ok: true, raw, json: JSON.parse(raw) as unknown, transfer, bytes };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      code: 'invalid_json',
      message: `the body is not valid JSON: ${errorText(error)}${FORM_ENCODED.test(raw.trim()) ? FORM_HINT : ''}`,
      raw,
      transfer,
    };
  }
}

/** `a=1&b=two`: an HTML form's encoding, what `requests.post(url, data=...)` sends. */
const FORM_ENCODED = /^[\w.%[\]-]+=[^&]*(?:&[\w.%[\]-]+=[^&]*)*$/;
const FORM_HINT =
  '; it is form-encoded (key=value&...): send the object as JSON with Content-Type: application/json (Python requests: json=..., not data=...)';

/** A body as bytes, whatever they are: the proxy forwards them unchanged. */
export type RawBody =
  { ok: true; body: Buffer } | { ok: false; status: 413 | 400; message: string };

/** The 413 of a raw body over the limit. */
export const rawTooLarge = (limit: number): RawBody => ({
  ok: false,
  status: 413,
  message: `the body is over ${limit} bytes (--body-limit)`,
});

/**
 * Reads a body as bytes within `limit` (413 beyond, once the rest was read and dropped; 400
 * when it was cut off); never rejects.
 * @example const read = await readRawBody(req, 1024); if (read.ok) forward(read.body);
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(over ? rawTooLarge(limit) : { ok: true, body: Buffer.concat(chunks) }),
    );
    req.on('error', (error) => resolve({ ok: false, status: 400, message: error.message }));
  });
}

/** The 413 of a body over the limit. */
export function tooLarge(limit: number, transfer: TransferMode): BodyResult {
  return {
    ok: false,
    status: 413,
    code: 'body_too_large',
    message: `the body is larger than ${limit} bytes`,
    transfer,
  };
}

/** Writes a JSON response (with Content-Length), with the other responses of this turn. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  endInBatch(res, text);
}

// the one builder of an error reply body, beside its catalogue (src/wire-errors.ts)
export { errorBody } from '../wire-errors.js';
