/**
 * The fault union of src/faults mapped onto msw answers (there is no socket to reset):
 * status -> that status, reset -> `HttpResponse.error()` (fetch rejects with a network
 * error), hang -> no answer until the client aborts, bad-json -> 200 with a text body,
 * error -> 200 `{"error":{code,message}}`, slow-body -> the real answer after the duration.
 */
import { HttpResponse } from 'msw';
import type { Clock } from '../clock.js';
import type { Fault } from '../faults/index.js';
import { injectedMessage } from '../faults/status.js';
import { errorBody, userErrorCode } from '../wire-errors.js';

/** What to do with a request once a fault is decided. */
export type MswFaultAction =
  | { kind: 'answer' }
  | { kind: 'delay-answer'; ms: number }
  | { kind: 'replace'; response: () => Promise<Response> };

/**
 * @example planFaultAnswer({ kind: 'status', status: 503 }, clock, signal)
 */
export function planFaultAnswer(fault: Fault, signal: AbortSignal): MswFaultAction {
  switch (fault.kind) {
    case 'none':
      return { kind: 'answer' };
    case 'slow-body':
      return { kind: 'delay-answer', ms: fault.durationMs };
    case 'status':
      return {
        kind: 'replace',
        response: () =>
          Promise.resolve(
            HttpResponse.json(errorBody('injected', injectedMessage(fault.status)), {
              status: fault.status,
            }),
          ),
      };
    case 'reset':
      return { kind: 'replace', response: () => Promise.resolve(HttpResponse.error()) };
    case 'hang':
      return { kind: 'replace', response: () => waitForAbort(signal) };
    case 'bad-json':
      return {
        kind: 'replace',
        response: () =>
          Promise.resolve(
            new HttpResponse('{"result": ok', {
              status: 200,
              headers: { 'content-type': 'application/json' },
            }),
          ),
      };
    case 'error':
      return {
        kind: 'replace',
        response: () =>
          Promise.resolve(HttpResponse.json(errorBody(userErrorCode(fault.code), fault.message))),
      };
    default: {
      const never: never = fault;
      throw new Error(`unknown fault ${JSON.stringify(never)}`);
    }
  }
}

/** A hanging answer: settles (as a network error) only when the client or the sim aborts. */
function waitForAbort(signal: AbortSignal): Promise<Response> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(HttpResponse.error());
    else signal.addEventListener('abort', () => resolve(HttpResponse.error()), { once: true });
  });
}

/** Waits `ms` of protocol time unless aborted. */
export async function sleepUnlessAborted(
  clock: Clock,
  ms: number,
  signal: AbortSignal,
): Promise<void> {
  if (ms <= 0) return;
  await clock.sleep(ms, signal).catch(() => undefined);
}
