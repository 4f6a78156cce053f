/**
 * The ONE reading of a fault: what it does to an exchange (`faultEffect`) and the request
 * pipeline's step that applies a fault plan (`faultStep`), shared by the serving roles
 * (src/roles/inbound.ts), the msw handlers (src/msw/faults.ts) and the proxy's fault leg
 * (src/proxy/proxy.ts). How an effect reaches the client is the reply wire's: a socket, the
 * in-process transport or the fetch face (src/http/fetch-adapter.ts) writes it
 * (`answerOnWire`, src/faults/apply.ts); what differs is where the step sits (msw's before
 * the core, so its slow body holds the request, then lets the core answer).
 */
import type { Middleware } from '../http/pipeline.js';
import { errorBody, userErrorCode } from '../wire-errors.js';
import type { Fault } from './fault.js';
import type { FaultDecision } from './plan.js';

/** What a fault does to an exchange, whatever carries it. */
export type FaultEffect =
  /** the normal answer */
  | { kind: 'answer' }
  /** an injected JSON reply in place of the normal one (an HTTP error, an error reply, a body that is not JSON) */
  | { kind: 'reply'; status: number; body: string }
  /** the normal answer, its body spread over `durationMs` of protocol time */
  | { kind: 'slow'; durationMs: number }
  /** no HTTP reply: the connection is reset, or the request held until the client gives up */
  | { kind: 'drop'; how: 'reset' | 'hang' };

/** The effects that answer in place of the rest of the pipeline. */
export type InjectedEffect = Exclude<FaultEffect, { kind: 'answer' }>;

/** What a `--fault status:<code>` answer says, over a socket and in msw alike. */
export const injectedMessage = (status: number): string => `svc-cli injected HTTP ${status}`;

/** The body of `bad-json`: HTTP 200 whose body is not JSON. */
export const MALFORMED_BODY = '{"result": ok';

/**
 * @example faultEffect({ kind: 'status', status: 503 }) // { kind: 'reply', status: 503, body: '{"error":{"code":"injected",...}}' }
 */
export function faultEffect(fault: Fault): FaultEffect {
  switch (fault.kind) {
    case 'none':
      return { kind: 'answer' };
    case 'status':
      return {
        kind: 'reply',
        status: fault.status,
        body: JSON.stringify(errorBody('injected', injectedMessage(fault.status))),
      };
    case 'error':
      // spec 2.2, 4.2: HTTP 200 with {"error":{"code","message"}} is a valid error reply
      return {
        kind: 'reply',
        status: 200,
        body: JSON.stringify(errorBody(userErrorCode(fault.code), fault.message)),
      };
    case 'bad-json':
      return { kind: 'reply', status: 200, body: MALFORMED_BODY };
    case 'reset':
    case 'hang':
      return { kind: 'drop', how: fault.kind };
    case 'slow-body':
      return { kind: 'slow', durationMs: fault.durationMs };
    default: {
      const never: never = fault;
      throw new Error(`unknown fault ${JSON.stringify(never)}`);
    }
  }
}

/** How one transport (or party) carries the fault plan's decisions. */
export interface FaultAdapter<C> {
  /** the plan's decision for this request; undefined: no plan acts here, the rest runs as it is */
  decide(ctx: C): FaultDecision | undefined;
  /** waits the decision's delay (protocol ms); false: the client left meanwhile */
  wait(ctx: C, decision: FaultDecision): Promise<boolean>;
  /** the client left during the delay: nothing is answered */
  gone(ctx: C): void;
  /** a fault that answers in place of the rest (`next`, which a slow body may still run) */
  inject(ctx: C, effect: InjectedEffect, next: (ctx: C) => void | Promise<void>): Promise<void>;
}

/**
 * The fault plan as a pipeline step (spec 8: faults act on valid requests): the decision is
 * put on the context, the delay waited, then the effect: the normal answer runs the rest of the
 * pipeline, any other answers through the adapter.
 * @example compose([journalStep(...), bodyStep(...), faultStep(adapter)], answer)
 */
export function faultStep<C extends { decision?: FaultDecision | undefined }>(
  adapter: FaultAdapter<C>,
): Middleware<C> {
  return async (ctx, next) => {
    const decision = adapter.decide(ctx);
    if (!decision) return next(ctx);
    ctx.decision = decision;
    if (decision.delayMs > 0 && !(await adapter.wait(ctx, decision))) return adapter.gone(ctx);
    const effect = faultEffect(decision.fault);
    if (effect.kind === 'answer') return next(ctx);
    return adapter.inject(ctx, effect, next);
  };
}
