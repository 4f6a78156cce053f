/**
 * The fault plan in the msw handlers: the request pipeline's one fault step
 * (src/faults/step.ts) with msw's adapter, the part that differs by transport: there is no
 * socket, so an effect becomes a `Response`: an injected reply as that reply, reset as
 * `HttpResponse.error()` (fetch rejects with a network error), hang as no answer until the
 * client aborts, a slow body as the real answer after the duration. A replaced answer is not
 * journaled (the journal step comes after this one).
 */
import { HttpResponse } from 'msw';
import type { Clock } from '../clock.js';
import {
  describeFault,
  faultStep,
  messageKeyOf,
  type FaultDecision,
  type FaultInjector,
  type InjectedEffect,
} from '../faults/index.js';
import type { Middleware, PipelineContext } from '../http/pipeline.js';
import type { PlatformRequest } from '../platform/index.js';

/** One request the handlers received, with what they answered. */
export interface ReceivedRequest {
  method: string;
  url: string;
  /** path relative to the base URL */
  path: string;
  headers: Record<string, string>;
  /** the parsed JSON body, or the raw text when it is not JSON */
  body?: unknown;
  /** the status answered (absent for reset and hang) */
  status?: number;
  /** the fault applied, in --fault syntax */
  fault: string;
}

/** What the fault step reads and writes of an msw request. */
export interface MswFaultContext extends PipelineContext {
  fetched: Request;
  request: Pick<PlatformRequest, 'path' | 'headers'>;
  clock: Clock;
  decision?: FaultDecision | undefined;
  /** what the client gets when a fault answers */
  reply?: Response;
  /** what `received` lists of it */
  entry?: ReceivedRequest;
}

/**
 * The fault step of the msw pipeline: every request is listed in `received` with the fault
 * decided for it.
 * @example compose([bodyStep(...), mswFaults(() => injector, received, closing), ...], handle)
 */
export function mswFaults<C extends MswFaultContext>(
  injector: () => FaultInjector,
  received: ReceivedRequest[],
  closing: AbortSignal,
): Middleware<C> {
  const signalOf = (ctx: C): AbortSignal => AbortSignal.any([ctx.fetched.signal, closing]);
  return faultStep<C>({
    decide(ctx) {
      const { fetched, request, body } = ctx;
      const key = body?.ok
        ? messageKeyOf(body.json, body.raw)
        : `${fetched.method} ${request.path}`;
      const decision = injector().decide(key);
      const entry: ReceivedRequest = {
        method: fetched.method,
        url: fetched.url,
        path: request.path,
        headers: request.headers,
        ...(body === undefined ? {} : { body: body.ok ? body.json : body.raw }),
        fault: describeFault(decision.fault),
      };
      received.push(entry);
      ctx.entry = entry;
      return decision;
    },
    // an aborted wait goes on: the client that left ignores what follows
    wait: (ctx, decision) => sleepUnlessAborted(ctx.clock, decision.delayMs, signalOf(ctx)),
    gone: () => undefined,
    async inject(ctx, effect, next) {
      if (effect.kind === 'slow') {
        await sleepUnlessAborted(ctx.clock, effect.durationMs, signalOf(ctx));
        return next(ctx);
      }
      const response = await responseOf(effect, signalOf(ctx));
      if (response.type !== 'error' && ctx.entry) ctx.entry.status = response.status;
      ctx.reply = response;
    },
  });
}

/** A fault's own answer as msw gives it. */
function responseOf(
  effect: Exclude<InjectedEffect, { kind: 'slow' }>,
  signal: AbortSignal,
): Promise<Response> {
  if (effect.kind === 'drop')
    return effect.how === 'reset' ? Promise.resolve(HttpResponse.error()) : waitForAbort(signal);
  return Promise.resolve(
    new HttpResponse(effect.body, {
      status: effect.status,
      headers: {
        'content-type': 'application/json',
        'content-length': String(new TextEncoder().encode(effect.body).length),
      },
    }),
  );
}

/** A hanging answer: settles (as a network error) only when the client or the sim aborts. */
function waitForAbort(signal: AbortSignal): Promise<Response> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(HttpResponse.error());
    else signal.addEventListener('abort', () => resolve(HttpResponse.error()), { once: true });
  });
}

/** Waits `ms` of protocol time unless aborted; always goes on (true). */
async function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms > 0) await clock.sleep(ms, signal).catch(() => undefined);
  return true;
}
