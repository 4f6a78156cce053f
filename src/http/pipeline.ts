/**
 * The request pipeline every server side runs: middleware `(ctx, next) => ...` composed ONCE
 * at start-up into one function, as hono composes its handlers, then run per request. The
 * platform's adapters (socket, in process, msw) and the serving roles (listen, hook-target,
 * bot-sim) compose the same steps: the body read within the limit (`bodyStep`), the fault
 * plan applied to the answer (`faultStep`, src/faults/step.ts, with one adapter per transport),
 * the exchange journaled
 * (`journalStep`, src/journal/record-exchange.ts); the proxy's forwarder uses the same
 * journal step.
 *
 * Two differences from hono, both for the ingest path: `next` takes the context (the chain is
 * built once, so a request allocates no closure per step), and a step may answer
 * synchronously (`void`): a synchronous route is answered in the turn its body arrived, with
 * no promise hop; a step that waits returns its promise and the steps around it chain on it.
 */
import { errorText } from '../errors.js';
import type { BodyResult } from './body.js';

/** What every step sees of a request: when it arrived and, once read, its body. */
export interface PipelineContext {
  readonly method: string;
  /** protocol ms at arrival */
  readonly started: number;
  /** wall ms at arrival */
  readonly wallStarted: number;
  /** the body, read within the limit by `bodyStep` (absent before, or without a body) */
  body?: BodyResult | undefined;
  /**
   * where a failure after the body arrived goes, for a transport that takes it by callback
   * (then `bodyStep` makes no promise per request); without it the pipeline's promise rejects
   */
  fail?: ((error: unknown) => void) | undefined;
}

/** The rest of the pipeline after a step. */
export type Next<C> = (ctx: C) => void | Promise<void>;

/** One step: runs around the rest (`next(ctx)`), or answers without calling it. */
export type Middleware<C> = (ctx: C, next: Next<C>) => void | Promise<void>;

/**
 * The steps around `handler`, outermost first, as one function. Call once at start-up.
 * @example const run = compose([journalStep(...), bodyStep(...)], handle); run(ctx);
 */
export function compose<C>(steps: readonly Middleware<C>[], handler: Next<C>): Next<C> {
  let chain = handler;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Middleware<C>;
    const inner = chain;
    chain = (ctx) => step(ctx, inner);
  }
  return chain;
}

/**
 * Runs `then` after `done` (a step's result): at once when it was synchronous, else when its
 * promise settles. What a step does after the rest of the pipeline.
 */
export function after(done: void | Promise<void>, then: () => void): void | Promise<void> {
  if (done) return done.then(then);
  then();
}

/** How a transport hands over a body within `limit`: at once, or later through `then`. */
export type BodyReader<C> = (
  ctx: C,
  limit: number,
  then: (body: BodyResult) => void,
) => BodyResult | undefined;

export interface BodyStepOptions<C> {
  /** the limit in bytes (413 beyond) */
  limit: number;
  /** false: the request has no body to read (GET, HEAD), next runs at once */
  wants?: (ctx: C) => boolean;
  read: BodyReader<C>;
}

/**
 * Reads the body within the limit into `ctx.body`, then runs the rest. A body the transport
 * holds in memory (in process) goes on synchronously; a socket's waits for its last chunk
 * without a promise hop of its own: the one promise is the pipeline's, and none when the
 * context carries `fail`.
 */
export function bodyStep<C extends PipelineContext>(options: BodyStepOptions<C>): Middleware<C> {
  const { limit, wants, read } = options;
  return (ctx, next) => {
    if (wants && !wants(ctx)) return next(ctx);
    let pending: ((body: BodyResult) => void) | undefined;
    let early: BodyResult | undefined;
    const now = read(ctx, limit, (body) => (pending ? pending(body) : (early = body)));
    const got = now ?? early;
    if (got) {
      ctx.body = got;
      return next(ctx);
    }
    const fail = ctx.fail;
    if (fail) {
      pending = (body) => {
        ctx.body = body;
        try {
          const done = next(ctx);
          if (done) done.then(undefined, fail);
        } catch (error) {
          fail(error instanceof Error ? error : new Error(errorText(error)));
        }
      };
      return;
    }
    return new Promise<void>((resolve, reject) => {
      pending = (body) => {
        ctx.body = body;
        try {
          const done = next(ctx);
          if (done) done.then(resolve, reject);
          else resolve();
        } catch (error) {
          reject(error instanceof Error ? error : new Error(errorText(error)));
        }
      };
    });
  };
}
