import { bodyText, type AppliedReply, type FaultContext } from './reply.js';

/**
 * The normal reply (its status and headers) with its body sent in pieces over `durationMs` of protocol time:
 * a client that waits at most 3 s for the whole reply sees a timeout.
 */
export async function applySlowBody(
  context: FaultContext,
  durationMs: number,
): Promise<AppliedReply> {
  const { wire, clock, normal } = context;
  const body = bodyText(normal.body);
  // the normal reply's own headers (a CORS answer), but its length: the body goes chunked
  const { 'content-length': _length, ...own } = normal.headers ?? {};
  wire.start(normal.status, {
    'content-type': 'application/json; charset=utf-8',
    ...own,
    'transfer-encoding': 'chunked',
  });
  const size = Math.max(1, Math.ceil(body.length / 20));
  // at most 20 pieces; the wait is split over the pieces actually written (a 21-byte body
  // goes out in 11 pieces of 2 bytes, and must still take the whole `durationMs`)
  const pieces = Math.max(1, Math.ceil(body.length / size));
  const controller = new AbortController();
  const off = wire.onClose(() => controller.abort(new Error('client closed')));
  try {
    for (let i = 0; i < body.length; i += size) {
      wire.write(body.slice(i, i + size));
      await clock.sleep(durationMs / pieces, controller.signal);
    }
    wire.end();
  } catch {
    // the client went away mid-body
  } finally {
    off();
  }
  return { status: normal.status, body };
}
