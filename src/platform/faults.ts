/**
 * The fault plan on the platform's own interfaces (`platform --fault ...`,
 * `createPlatform({ faults })`, replaced while serving by `PUT /_sim/faults` and
 * `Platform.setFaults`; the plan in force is the core's `faults`): the request pipeline's one
 * fault step (src/faults/step.ts)
 * in the socket pipeline and the wire pipeline (in process, the fetch face) of
 * `http-adapter.ts`, written on the exchange's reply wire with `answerOnWire` as the roles
 * write theirs. Only the interfaces are faulted (the channel, the bot API, the widget channel's
 * events), never the control API or the web console: tests and tools drive those. A faulted
 * request does not reach the core, as in an outage (no chat opened, no message counted), but
 * a delay (then the core answers) and a slow body (the core's answer, its body spread over
 * the duration); each is journaled by the platform's journal step with a note naming it.
 */
import {
  answerOnWire,
  describeFault,
  faultStep,
  receivedMessageKeyOf,
  waitOnWire,
  type FaultDecision,
  type InjectedEffect,
} from '../faults/index.js';
import { after, type Middleware, type PipelineContext } from '../http/pipeline.js';
import type { OutgoingHeaders, ReplyWire } from '../http/wire.js';
import type { ExchangeInput } from '../journal/index.js';
import type { PlatformCore } from './core.js';
import { responseHeaders, responseText } from './fetch-adapter.js';
import { ifaceOf } from './service-table.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

/** The fault applied to one request, as the journal records it. */
export interface AppliedFault {
  /** in --fault syntax (`delay:<ms>` for a delay alone) */
  name: string;
  /** the interface the request was for (the core, which would say, was not asked) */
  iface: ExchangeInput['iface'];
  /** no reply (reset, hang, or the client left during the delay): why */
  failure?: ExchangeInput['failure'];
}

/** What the fault step reads and writes of a platform request (`PlatformContext`). */
export interface PlatformFaultContext extends PipelineContext {
  core: PlatformCore;
  request: PlatformRequest;
  answered?: PlatformResponse | undefined;
  text?: string;
  decision?: FaultDecision | undefined;
  fault?: AppliedFault | undefined;
}

/** How one adapter of the platform carries the step's answers. */
export interface PlatformFaultIo<C> {
  /** the reply wire of the exchange */
  wire(ctx: C): ReplyWire;
  /** the answer as this adapter sends it (the socket's CORS answer under /_sim/) */
  shape(ctx: C, response: PlatformResponse): PlatformResponse;
  /** the adapter's own answer (a stream: slowed down by nothing but its delay) */
  respond(ctx: C, response: PlatformResponse): void;
}

/** The widget channel's events (spec 4.5), the one route under /_sim/ that is an interface. */
const WIDGET_EVENTS = '/_sim/widget/events';

/**
 * Whether the plan acts on this request: an interface's request (not the control API, the web
 * console's pages and assets, a preflight) that a route takes and whose body, if any, was read
 * (spec 8: faults act on valid requests; a body refused as unreadable or too large, and a
 * method or path no route takes, get their answer as it is, body or not).
 */
export function isFaultable(
  core: Pick<PlatformCore, 'serves'>,
  request: PlatformRequest,
  body: PipelineContext['body'],
): boolean {
  if (body && !body.ok) return false;
  const { method, path } = request;
  if (path.startsWith('/_sim')) return path === WIDGET_EVENTS && method !== 'OPTIONS';
  return path !== '/' && path !== '/favicon.ico' && core.serves(method, path);
}

/** The interface of a faulted request, for its journal record. */
const ifaceOfPath = (path: string): ExchangeInput['iface'] =>
  path === WIDGET_EVENTS ? 'widget' : ifaceOf(path);

/** The plan's name for what it did: the fault, else the delay alone; undefined: nothing. */
function nameOf(decision: FaultDecision): string | undefined {
  if (decision.fault.kind !== 'none') return describeFault(decision.fault);
  return decision.delayMs > 0 ? `delay:${decision.delayMs}` : undefined;
}

/** A wire whose replies carry `extra` headers too (the widget channel's CORS answer). */
function withHeaders(wire: ReplyWire, extra: Record<string, string> | undefined): ReplyWire {
  if (!extra) return wire;
  return {
    ...wire,
    send: (status, body, headers, options) =>
      wire.send(status, body, { ...extra, ...headers }, options),
    start: (status, headers: OutgoingHeaders) => wire.start(status, { ...extra, ...headers }),
  };
}

/** The CORS headers an injected answer carries on the widget channel, as the adapter shapes them. */
function corsOf<C extends PlatformFaultContext>(
  io: PlatformFaultIo<C>,
  ctx: C,
): Record<string, string> | undefined {
  if (ctx.request.path !== WIDGET_EVENTS) return undefined;
  const shaped = io.shape(ctx, { status: 200, headers: { 'access-control-allow-origin': '*' } });
  return shaped.headers;
}

/**
 * The core's answer with its body spread over `durationMs` of protocol time (a stream is
 * answered as it is).
 */
async function answerSlowly<C extends PlatformFaultContext>(
  io: PlatformFaultIo<C>,
  ctx: C,
  durationMs: number,
): Promise<void> {
  if (ctx.body) ctx.request.body = ctx.body;
  const response = await ctx.core.handle(ctx.request);
  if (response.stream) return io.respond(ctx, response);
  const shaped = io.shape(ctx, response);
  const text = responseText(shaped);
  ctx.answered = response;
  ctx.text = text;
  const normal = { status: shaped.status, body: text, headers: responseHeaders(shaped) };
  const wire = io.wire(ctx);
  await answerOnWire({ kind: 'slow', durationMs }, { wire, clock: ctx.core.clock, normal });
}

/** An injected reply or no reply, in place of the core's answer. */
async function answerInstead<C extends PlatformFaultContext>(
  io: PlatformFaultIo<C>,
  ctx: C,
  effect: Exclude<InjectedEffect, { kind: 'slow' }>,
): Promise<void> {
  const fault = ctx.fault;
  const wire = withHeaders(io.wire(ctx), corsOf(io, ctx));
  const normal = { status: 200, body: '' }; // not asked: the core never sees the request
  const applied = await answerOnWire(effect, { wire, clock: ctx.core.clock, normal });
  if (applied.noReply) {
    if (fault)
      fault.failure = {
        reason: applied.noReply,
        message: `no reply: ${applied.noReply} (injected)`,
      };
    return;
  }
  ctx.answered = { status: applied.status ?? 0 };
  ctx.text = applied.body ?? '';
}

/**
 * What the simulator's log says of a faulted request (an `info` notice: `--quiet` drops it;
 * the interface rather than the path, which holds the channel URL's secret).
 */
function announce(ctx: PlatformFaultContext): void {
  const { fault, answered, core, request } = ctx;
  if (!fault) return;
  const what = answered
    ? `answered ${answered.status}${fault.name.startsWith('slow-body') || fault.name.startsWith('delay') ? '' : ' in place of the simulator'}`
    : fault.failure
      ? `no reply (${fault.failure.reason})`
      : 'answered with a stream';
  core.emit({
    type: 'notice',
    level: 'info',
    message: `fault ${fault.name}: ${request.method} on the ${fault.iface} interface, ${what}`,
    protocolMs: core.clock.now(),
  });
}

/**
 * The platform's fault step, in every adapter's pipeline: with no plan in force (the core's
 * `faults`) one check and the core answers; else it decides per request (the message's id,
 * else the method and path, counts the attempts), waits the delay on the protocol clock,
 * then answers in place of the core or lets it answer; a faulted request is announced once
 * answered.
 * @example compose([bodyStep(...), journalPlatform(), platformFaults(io)], handleWith(respond))
 */
export function platformFaults<C extends PlatformFaultContext>(
  io: PlatformFaultIo<C>,
): Middleware<C> {
  const step = faultStepOf(io);
  return (ctx, next) =>
    ctx.core.faults.injector === undefined
      ? next(ctx)
      : after(step(ctx, next), () => announce(ctx));
}

/** The one fault step (src/faults/step.ts) with the platform's adapter. */
function faultStepOf<C extends PlatformFaultContext>(io: PlatformFaultIo<C>): Middleware<C> {
  return faultStep<C>({
    decide(ctx) {
      const { request, body } = ctx;
      const injector = ctx.core.faults.injector;
      if (injector === undefined || !isFaultable(ctx.core, request, body)) return undefined;
      const key = body?.ok
        ? receivedMessageKeyOf(body.json, body.raw)
        : `${request.method} ${request.path}`;
      const decision = injector.decide(key);
      const name = nameOf(decision);
      if (name !== undefined) {
        ctx.fault = { name, iface: ifaceOfPath(request.path) };
        if (body) request.body = body; // journaled as it came, though the core never reads it
      }
      return decision;
    },
    wait: (ctx, decision) => waitOnWire(io.wire(ctx), ctx.core.clock, decision.delayMs),
    gone(ctx) {
      if (ctx.fault)
        ctx.fault.failure = {
          reason: 'caller-gone',
          message: 'the client left during the injected delay',
        };
    },
    inject: (ctx, effect) =>
      effect.kind === 'slow'
        ? answerSlowly(io, ctx, effect.durationMs)
        : answerInstead(io, ctx, effect),
  });
}
