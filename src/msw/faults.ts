/**
 * The fault plan in the msw handlers: the request pipeline's one fault step
 * (src/faults/step.ts) written on the fetch face's wire (src/http/fetch-adapter.ts) as the
 * roles write theirs (`answerOnWire`): an injected reply as that reply, reset as
 * `Response.error()` (fetch rejects with a network error), hang as no answer until the client
 * aborts or the handlers close. Its own part: the platform's answer comes from the core AFTER
 * this step (a faulted request never reaches the core, as in an outage, and a replaced answer
 * is not journaled, the journal step coming after this one), so a slow body is the real answer
 * after the duration rather than the roles' normal answer trickled out.
 */
import type { Clock } from '../clock.js';
import {
  answerOnWire,
  describeFault,
  faultStep,
  receivedMessageKeyOf,
  waitOnWire,
  type FaultDecision,
  type FaultInjector,
} from '../faults/index.js';
import type { Middleware, PipelineContext } from '../http/pipeline.js';
import type { ReplyWire } from '../http/wire.js';
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
  /** where the answer goes: the fetch face's wire */
  wire: ReplyWire;
  decision?: FaultDecision | undefined;
  /** what `received` lists of it */
  entry?: ReceivedRequest;
}

/** What an injected reply stands in for: nothing, the core has not answered yet. */
const NOT_ANSWERED = { status: 200, body: '' };

/**
 * The fault step of the msw pipeline: every request is listed in `received` with the fault
 * decided for it.
 * @example compose([bodyStep(...), mswFaults(() => injector, received), ...], handle)
 */
export function mswFaults<C extends MswFaultContext>(
  injector: () => FaultInjector,
  received: ReceivedRequest[],
): Middleware<C> {
  return faultStep<C>({
    decide(ctx) {
      const { fetched, request, body } = ctx;
      const key = body?.ok
        ? receivedMessageKeyOf(body.json, body.raw)
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
    wait: (ctx, decision) => goOnAfter(ctx, decision.delayMs),
    gone: () => undefined,
    async inject(ctx, effect, next) {
      if (effect.kind === 'slow') {
        await goOnAfter(ctx, effect.durationMs);
        return next(ctx);
      }
      const { wire, clock } = ctx;
      const applied = await answerOnWire(effect, { wire, clock, normal: NOT_ANSWERED });
      if (applied.status !== undefined && ctx.entry) ctx.entry.status = applied.status;
    },
  });
}

/** Waits `ms` of protocol time unless the client leaves first; always goes on (true). */
async function goOnAfter(ctx: MswFaultContext, ms: number): Promise<boolean> {
  if (ms > 0) await waitOnWire(ctx.wire, ctx.clock, ms);
  return true;
}
