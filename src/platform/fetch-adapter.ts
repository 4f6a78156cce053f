/** A fetch `Request` as the platform core sees it, and the core's answer as a `Response` (msw, core.request). */
import type { BodyResult } from '../http/body.js';
import { readFetchBody } from '../http/fetch-adapter.js';
import { bodyText } from './constant-body.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

/**
 * Reads the body the way the socket adapter does (`readFetchBody`, src/http/fetch-adapter.ts):
 * never throws, JSON or a 400 reason, and over `limit` bytes the same 413 (`body_too_large`);
 * a declared length over it is refused unread. The framing as msw's requests show it: chunked
 * unless a Content-Length is given.
 */
export function readRequestBody(
  request: Request,
  limit = Number.POSITIVE_INFINITY,
): Promise<BodyResult> {
  const transfer = request.headers.has('content-length') ? 'content-length' : 'chunked';
  return readFetchBody(request, limit, transfer);
}

/**
 * Maps a Request under `basePath` onto a PlatformRequest (path relative to the base URL).
 * @example await toPlatformRequest(new Request('https://p.test/r/ch/status'), '') // { method: 'GET', path: '/r/ch/status', ... }
 */
export async function toPlatformRequest(
  request: Request,
  basePath: string,
): Promise<PlatformRequest> {
  const platformRequest = platformRequestHead(request, basePath);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    platformRequest.body = await readRequestBody(request);
  }
  return platformRequest;
}

/**
 * A Request under `basePath` as a PlatformRequest without its body (read apart, by the
 * request pipeline's body step or `toPlatformRequest`).
 * @example platformRequestHead(new Request('https://p.test/r/ch/status'), '').path // '/r/ch/status'
 */
export function platformRequestHead(request: Request, basePath: string): PlatformRequest {
  const url = new URL(request.url);
  const path = url.pathname.startsWith(basePath)
    ? url.pathname.slice(basePath.length) || '/'
    : url.pathname;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  return { method: request.method, path, query: url.searchParams, headers };
}

/** The body text a PlatformResponse is sent with (strings as they are, else JSON). */
export function responseText(response: PlatformResponse): string {
  return bodyText(response.body);
}

/** Headers of a PlatformResponse: JSON unless the route set its own content type. */
export function responseHeaders(response: PlatformResponse): Record<string, string> {
  const ownType = Object.keys(response.headers ?? {}).some(
    (h) => h.toLowerCase() === 'content-type',
  );
  return {
    ...(ownType || response.body === undefined
      ? {}
      : { 'content-type': 'application/json; charset=utf-8' }),
    ...response.headers,
  };
}
