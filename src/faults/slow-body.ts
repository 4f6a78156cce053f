import { bodyText, type AppliedReply, type FaultContext } from './reply.js';

/**
 * HTTP 200 with the normal body sent a byte at a time over `durationMs` of protocol time:
 * a client that waits at most 3 s for the whole reply sees a timeout.
 */
export async function applySlowBody(
  context: FaultContext,
  durationMs: number,
): Promise<AppliedReply> {
  const { res, clock, normal } = context;
  const body = bodyText(normal.body);
  res.writeHead(normal.status, {
    'content-type': 'application/json; charset=utf-8',
    'transfer-encoding': 'chunked',
  });
  const size = Math.max(1, Math.ceil(body.length / 20));
  // at most 20 pieces; the wait is split over the pieces actually written (a 21-byte body
  // goes out in 11 pieces of 2 bytes, and must still take the whole `durationMs`)
  const pieces = Math.max(1, Math.ceil(body.length / size));
  const signal = closedSignal(res);
  try {
    for (let i = 0; i < body.length; i += size) {
      res.write(body.slice(i, i + size));
      await clock.sleep(durationMs / pieces, signal);
    }
    res.end();
  } catch {
    // the client went away mid-body
  }
  return { status: normal.status, body };
}

function closedSignal(res: FaultContext['res']): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => controller.abort(new Error('client closed')));
  return controller.signal;
}
