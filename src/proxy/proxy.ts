/**
 * `svc-cli proxy`: a transparent forwarder between real parties of one interface,
 * both directions, that validates, times and records every exchange and can inject the fault
 * module's faults on one leg. Requests and answers pass unchanged (status, headers, body,
 * Content-Length or chunked as received), apart from the hop-by-hop headers a proxy must not
 * forward (RFC 9110 7.6.1). The core never prints: it emits `ProxyEvent`s.
 */
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../clock.js';
import {
  answerOnWire,
  createFaultInjector,
  describeFault,
  faultStep,
  messageKeyOf,
  waitOnWire,
  type FaultDecision,
  type FaultInjector,
} from '../faults/index.js';
import { DEFAULT_BODY_LIMIT } from '../http/body.js';
import { exchangeFetch, socketExchange, type InboundExchange } from '../http/exchange.js';
import { compose, type Middleware, type PipelineContext } from '../http/pipeline.js';
import { createRouter, type Router } from '../http/router.js';
import { listenAt, startServer, type RunningServer } from '../http/server.js';
import type { DeliveryPolicy } from '../contract/timing.js';
import {
  createRedactor,
  journalStep,
  type ExchangeInput,
  type Redactor,
} from '../journal/index.js';
import { checkAnswer, checkRequest } from './check.js';
import { forward, forwardHeaders, sendError, upstreamUrlOf, writeAnswer } from './forward.js';
import { compact } from '../compact.js';
import {
  CALLER_GONE_AT,
  gaveUpUnder,
  HANDS_OVER,
  PROVIDER_DROPS,
  REFUSED,
  driftOf,
  journalInput,
  profileMarkOf,
  seriesName,
  verdictOf,
} from './judge.js';
import { defaultFaultLeg, legsOf, type LegName, type LegSpec } from './legs.js';
import { createSeriesTracker, type AttemptInfo, type SeriesTracker } from './series.js';
import { copyOf, count, emptySummary, invariantFlags } from './summary.js';
import type { ProxyExchangeEvent, ProxyOptions, ProxySummary, RunningProxy } from './types.js';

export { upstreamUrlOf };
export type {
  ProxyEvent,
  ProxyExchangeEvent,
  ProxyOptions,
  ProxySummary,
  ProxyUnroutedEvent,
  ProxyViolationEvent,
  RunningProxy,
} from './types.js';

/** What every step of the proxy shares: the options and the state of the running proxy. */
interface ProxyRun {
  options: ProxyOptions;
  clock: Clock;
  legs: LegSpec[];
  faultLeg: LegName;
  injector: FaultInjector | undefined;
  trackers: Map<LegName, SeriesTracker>;
  summary: ProxySummary;
  invariants: ReturnType<typeof invariantFlags>;
  secrets: ReturnType<typeof proxySecrets>;
  policyOf(leg: LegSpec): DeliveryPolicy | undefined;
  profileMark: ReturnType<typeof profileMarkOf>;
  /** the proxy's own URL, once it listens (the legs' URLs an unrouted path is pointed to) */
  url: string;
  /** set at close: a forward cut off from now on was cut by the proxy stopping */
  stopping: boolean;
  /**
   * the refusals already said, by code and path or Host (at most MAX_UNROUTED: a scanner
   * tries thousands)
   */
  unrouted: Set<string>;
}

const MAX_UNROUTED = 100;

/** The forwarded exchange's answer as it went back to the caller. */
interface ProxyAnswer {
  status?: number | undefined;
  headers: Record<string, string>;
  body: string;
  failure?: ProxyExchangeEvent['failure'];
  /** the fault injected, in --fault syntax (`delay:<ms>` for a delay alone) */
  fault?: string | undefined;
  /** false: the proxy's fault answered in place of the upstream */
  forwarded: boolean;
}

/** One request to the proxy on its way through its pipeline. */
interface ProxyContext extends PipelineContext {
  /** the request and the wire its answer goes on: a socket's, or a Request's (`fetch`) */
  exchange: InboundExchange;
  /** wall time of arrival, ISO 8601 */
  at: string;
  /** the path on the proxy, and the query as sent */
  path: string;
  search: string;
  /** the leg the path names, the rest of the path, and where it goes */
  route?: { leg: LegSpec; rest: string; upstream: string };
  /** the body as read (bytes, and as text) */
  payload?: Buffer;
  raw: string;
  requestCheck?: ReturnType<typeof checkRequest>;
  /** the message's identity across attempts, and its attempt when the leg redelivers */
  key: string;
  attempt?: AttemptInfo | undefined;
  decision?: FaultDecision | undefined;
  answer: ProxyAnswer;
  /** what the forwarder saw of the exchange: its record, its event, when it ended */
  seen?: { input: ExchangeInput; event: ProxyExchangeEvent; endMs: number } | undefined;
  /** the body refused before it was forwarded (over the limit, or cut off): what was answered */
  refused?: { status: number; code: 'body_too_large' | 'aborted'; body: string } | undefined;
}

/**
 * Starts the proxy on its own port: the request pipeline, composed once: the journal (and,
 * once numbered, the event and the invariants), the leg the path names, the body within the
 * limit, the request judged (and, after the answer, the exchange), the fault plan on the fault
 * leg, the forwarder.
 * @example const proxy = await startProxy({ iface: 'hooks', upstreams: { receiver: 'http://127.0.0.1:9200/hooks' }, clock });
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const proxy = proxyRun(options);
  const { clock, legs, secrets } = proxy;
  const run = compose<ProxyContext>(
    [
      journalSeen(proxy),
      routeStep(proxy),
      readStep(proxy, options.bodyLimit ?? DEFAULT_BODY_LIMIT),
      judgeStep(proxy),
      proxyFaults(proxy),
    ],
    forwardStep(proxy),
  );
  // the exchanges under way: at close, each ends (answered, or cut off with its caller) and is
  // journaled before the journal closes, so a request in flight at Ctrl-C is on record
  const inFlight = new Set<Promise<void>>();
  const tracked = (exchange: InboundExchange): Promise<void> => {
    const running = Promise.resolve(run(contextOf(clock, exchange)));
    inFlight.add(running);
    const done = (): boolean => inFlight.delete(running);
    running.then(done, done);
    return running;
  };
  const server: RunningServer = await startServer({
    handler: (req, res) => tracked(socketExchange(req, res)),
    ...listenAt(options),
    onHostRefused: (host, req) => sayHostRefused(proxy, host, req),
  });
  proxy.url = server.url;
  const face = exchangeFetch(tracked);
  return {
    url: server.url,
    port: server.port,
    legs: legs.map((leg) => ({
      leg,
      url: `${server.url}${leg.prefix}`,
      upstream: options.upstreams[leg.name] ?? '',
    })),
    summary: () => copyOf(proxy.summary),
    redact: secrets.redact,
    fetch: face.fetch,
    async close(graceMs) {
      proxy.stopping = true;
      face.close();
      // past the grace the sockets close: each forward still waiting sees its caller gone
      await server.close(graceMs);
      await Promise.allSettled([...inFlight]);
      proxy.invariants.finish();
    },
  };
}

/** The proxy's state, made once at start. */
function proxyRun(options: ProxyOptions): ProxyRun {
  const legs = legsOf(options.iface).filter((leg) => options.upstreams[leg.name] !== undefined);
  const hasFaults =
    options.plan !== undefined && Object.values(options.plan).some((v) => v !== undefined);
  const policyOf = (leg: LegSpec): DeliveryPolicy | undefined =>
    leg.policy && (options.profile?.policies[leg.name] ?? leg.policy);
  const summary = emptySummary();
  return {
    options,
    clock: options.clock,
    legs,
    faultLeg: options.faultLeg ?? defaultFaultLeg(options.iface),
    injector: hasFaults ? createFaultInjector(options.plan) : undefined,
    trackers: new Map(
      legs.map((leg) => [
        leg.name,
        createSeriesTracker(
          policyOf(leg),
          gaveUpUnder(leg.name, policyOf(leg), options.profile?.name),
        ),
      ]),
    ),
    summary,
    invariants: invariantFlags(options, summary),
    secrets: proxySecrets(options),
    policyOf,
    // without --profile, the spec's schedule: an attempt off it is flagged all the same
    profileMark: profileMarkOf(options.profile?.name ?? 'spec'),
    url: '',
    unrouted: new Set(),
    stopping: false,
  };
}

/** A request as it arrives: its path and query apart, nothing answered yet. */
function contextOf(clock: Clock, exchange: InboundExchange): ProxyContext {
  return {
    method: exchange.method,
    started: clock.now(),
    wallStarted: clock.wallNow(),
    exchange,
    at: new Date().toISOString(),
    path: exchange.path,
    search: exchange.search,
    raw: '',
    key: '',
    answer: { headers: {}, body: '', forwarded: true },
  };
}

/** Where a secret sits in a path, as a route whose `:secret` param is it. */
const secretPath = (path: string): Router<true> => {
  const router = createRouter<true>();
  router.add([{ method: '*', path, handler: true }]);
  return router;
};

const SECRET_PATHS = {
  /** the channel URL: the random string before the public id (spec 4.1) */
  channel: secretPath('/*/:secret/:channel'),
  /** after the provider leg's prefix: the provider's path starts with the token */
  provider: secretPath('/:secret/*'),
  /** after the platform leg's prefix: a path of three segments or more ends in the token */
  platform: secretPath('/*/:base/:provider/:secret'),
};

const secretIn = (paths: Router<true>, path: string): string | undefined => {
  const match = paths.match('POST', path);
  return match.kind === 'found' ? match.params.secret : undefined;
};

/**
 * The secrets in the URLs, hidden as `***`: the channel URL's random string, and a bot token
 * as soon as a path shows it (spec 5.1, 5.2).
 */
function proxySecrets(options: ProxyOptions) {
  const secrets = new Set<string>();
  const channelUrl = options.iface === 'channel' ? options.upstreams.platform : undefined;
  if (channelUrl) {
    const random = secretIn(SECRET_PATHS.channel, new URL(channelUrl).pathname);
    if (random) secrets.add(random);
  }
  let redactor: Redactor | undefined;
  const redact: Redactor = (text, where) => (redactor ??= createRedactor(secrets))(text, where);
  return {
    redact,
    /** the token a bot leg's path shows: the provider's last segment, the platform's too */
    learn(leg: LegSpec, rest: string): void {
      if (options.iface !== 'bot') return;
      const token = secretIn(
        leg.name === 'provider' ? SECRET_PATHS.provider : SECRET_PATHS.platform,
        rest,
      );
      if (token && !secrets.has(token)) {
        secrets.add(token);
        redactor = undefined;
      }
    },
  };
}

/**
 * The legs as a route table (`<prefix>/*` each), matched once per request by the shared
 * matcher (src/http/router.ts); the rest is the path after the prefix as sent, so the
 * upstream sees its slashes unchanged.
 */
function legRoutes(legs: readonly LegSpec[]) {
  const router = createRouter<LegSpec>();
  router.add(legs.map((leg) => ({ method: '*', path: `${leg.prefix}/*`, handler: leg })));
  return (path: string): { leg: LegSpec; rest: string } | undefined => {
    const match = router.match('*', path);
    if (match.kind !== 'found' || !path.startsWith(match.handler.prefix)) return undefined;
    return { leg: match.handler, rest: path.slice(match.handler.prefix.length) };
  };
}

/**
 * The leg the path names; a path no leg serves gets a 404. Whoever reaches the port (a
 * tunnel) learns the paths, not the upstreams: a channel URL's random string is its only
 * protection (spec 5.1).
 */
function routeStep(proxy: ProxyRun): Middleware<ProxyContext> {
  const { legs, options, secrets } = proxy;
  const routeOf = legRoutes(legs);
  return (ctx, next) => {
    const route = routeOf(ctx.path);
    if (!route) {
      ctx.exchange.skipBody();
      const missing = missingLegOf(proxy, ctx.path);
      sayUnrouted(proxy, ctx, missing);
      sendError(
        ctx.exchange.wire,
        404,
        'no_route',
        missing
          ? `svc-cli proxy was started without ${missing.flag}, so it forwards no ${missing.prefix}/...; it forwards only ${legs.map((l) => `${l.prefix}/...`).join(', ')}`
          : `svc-cli proxy forwards only ${legs.map((l) => `${l.prefix}/...`).join(', ')}; ${ctx.method} ${secrets.redact(ctx.path)} is none of them`,
      );
      return;
    }
    secrets.learn(route.leg, route.rest);
    const upstream = upstreamUrlOf(options.upstreams[route.leg.name] ?? '', route.rest, ctx.search);
    ctx.route = { ...route, upstream };
    return next(ctx);
  };
}

/**
 * Says a path no leg serves, once per path: the 404 goes to the caller (a platform whose hook
 * URL names the receiver's own path), which the person watching the proxy does not see.
 */
/** The flag that gives each leg its upstream. */
const UPSTREAM_FLAG: Record<LegName, string> = {
  platform: '--platform-url',
  integrator: '--integrator-url',
  provider: '--provider-url',
  receiver: '--receiver-url',
};

/**
 * The leg of the proxy's interface whose prefix `path` has, when the proxy was started
 * without its upstream (`proxy channel --integrator-url` only, then a customer message to
 * /channel): what is missing is a flag, not a path.
 */
function missingLegOf(
  proxy: ProxyRun,
  path: string,
): { leg: LegName; flag: string; prefix: string } | undefined {
  const leg = legsOf(proxy.options.iface).find(
    (l) =>
      proxy.options.upstreams[l.name] === undefined &&
      (path === l.prefix || path.startsWith(`${l.prefix}/`)),
  );
  return leg && { leg: leg.name, flag: UPSTREAM_FLAG[leg.name], prefix: leg.prefix };
}

function sayUnrouted(
  proxy: ProxyRun,
  ctx: ProxyContext,
  missing?: { leg: LegName; flag: string },
): void {
  const path = proxy.secrets.redact(ctx.path);
  if (!firstSaid(proxy, `no_route ${path}`)) return;
  const serves = proxy.legs.map((leg) => ({
    leg: leg.name,
    caller: leg.caller,
    url: `${proxy.url}${leg.prefix}`,
  }));
  proxy.options.onEvent?.({
    type: 'request-rejected',
    at: ctx.at,
    method: ctx.method,
    path,
    status: 404,
    code: 'no_route',
    message: missing
      ? `not proxied: the proxy was started without ${missing.flag}, the upstream of this path`
      : `not proxied: the proxy serves ${serves.map((s) => `${s.url}/...`).join(' and ')}`,
    serves,
    ...(missing ? { missing: { leg: missing.leg, flag: missing.flag } } : {}),
  });
}

/** True the first time `key` is said (a refusal of one kind on one path or Host). */
function firstSaid(proxy: ProxyRun, key: string): boolean {
  if (proxy.unrouted.has(key) || proxy.unrouted.size >= MAX_UNROUTED) return false;
  proxy.unrouted.add(key);
  return true;
}

/**
 * A request refused for its Host (DNS rebinding, docs/SECURITY.md), said once per Host: a
 * staging tunnel or reverse proxy that keeps its own Host is refused 403 before the proxy sees
 * the request, and its caller's answer names --allowed-host where the watcher would not.
 */
function sayHostRefused(proxy: ProxyRun, host: string, req: IncomingMessage): void {
  if (!firstSaid(proxy, `host_not_allowed ${host}`)) return;
  proxy.options.onEvent?.({
    type: 'request-rejected',
    at: new Date().toISOString(),
    method: req.method ?? 'GET',
    path: proxy.secrets.redact(req.url ?? '/'),
    status: 403,
    code: 'host_not_allowed',
    host,
    message: `the Host ${JSON.stringify(host)} is not admitted; --allowed-host ${host.replace(/:\d+$/, '')} admits it (a tunnel or reverse proxy that keeps its own Host)`,
  });
}

/**
 * The body within the limit (413 beyond; 400 when it could not be read); the refusal is
 * journaled by the journal step like every other exchange (`refusedInput`), and a 413 said
 * once per path (its caller is the one told).
 */
function readStep(proxy: ProxyRun, bodyLimit: number): Middleware<ProxyContext> {
  return async (ctx, next) => {
    const read = await ctx.exchange.readRaw(bodyLimit);
    if (!read.ok) {
      const code = read.status === 413 ? 'body_too_large' : 'aborted';
      const body = sendError(ctx.exchange.wire, read.status, code, read.message);
      ctx.refused = { status: read.status, code, body };
      const path = proxy.secrets.redact(ctx.path);
      if (code === 'body_too_large' && firstSaid(proxy, `${code} ${path}`))
        proxy.options.onEvent?.({
          type: 'request-rejected',
          at: ctx.at,
          method: ctx.method,
          path,
          status: 413,
          code,
          message: read.message,
        });
      return;
    }
    ctx.payload = read.body;
    ctx.raw = read.body.toString('utf8');
    return next(ctx);
  };
}

/**
 * The request judged by the contract, its message key and attempt; after the answer, the
 * exchange judged and counted (`settle`).
 */
function judgeStep(proxy: ProxyRun): Middleware<ProxyContext> {
  const { options, trackers } = proxy;
  return async (ctx, next) => {
    const route = ctx.route;
    if (!route) return;
    const { leg } = route;
    ctx.requestCheck = checkRequest(leg, ctx.method, ctx.path, ctx.raw, options.strict);
    ctx.key = messageKeyOf(jsonOf(ctx.raw), ctx.raw);
    const tracker = trackers.get(leg.name);
    if (ctx.method === 'POST' && leg.policy) ctx.attempt = tracker?.attempt(ctx.key, ctx.started);
    await next(ctx);
    ctx.seen = settle(proxy, ctx);
  };
}

/** A body as JSON, or undefined when it is empty or not JSON. */
function jsonOf(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The fault plan on the fault leg (the one fault step, src/faults/step.ts): a fault answers on
 * the caller's socket in place of the upstream (its normal answer `{"result":"ok"}`); a delay
 * alone holds the request, then forwards it.
 */
function proxyFaults(proxy: ProxyRun): Middleware<ProxyContext> {
  const { injector, faultLeg, clock } = proxy;
  const wireOf = (ctx: ProxyContext) => ctx.exchange.wire;
  const stopForwarding = (ctx: ProxyContext, decision: FaultDecision): void => {
    ctx.answer.forwarded = false;
    ctx.answer.fault = describeFault(decision.fault);
  };
  return faultStep<ProxyContext>({
    decide(ctx) {
      if (!injector || ctx.route?.leg.name !== faultLeg) return undefined;
      const decision = injector.decide(ctx.key);
      if (decision.fault.kind !== 'none') stopForwarding(ctx, decision);
      else if (decision.delayMs > 0) ctx.answer.fault = `delay:${decision.delayMs}`;
      return decision;
    },
    async wait(ctx, decision) {
      // a delay alone is not cut short: the request is forwarded after it
      if (decision.fault.kind !== 'none') return waitOnWire(wireOf(ctx), clock, decision.delayMs);
      await clock.sleep(decision.delayMs);
      return true;
    },
    gone(ctx) {
      ctx.answer.failure = { reason: 'hang', message: `fault ${ctx.answer.fault ?? ''}` };
    },
    async inject(ctx, effect) {
      const normal = { status: 200, body: { result: 'ok' } };
      const applied = await answerOnWire(effect, { wire: wireOf(ctx), clock, normal });
      if (applied.status !== undefined) ctx.answer.status = applied.status;
      ctx.answer.body = applied.body ?? '';
      if (applied.noReply)
        ctx.answer.failure = {
          reason: applied.noReply,
          message: `fault ${ctx.answer.fault ?? ''}`,
        };
    },
  });
}

/**
 * The upstream's answer to the caller, or the proxy's 502 / 504 when there is none. The
 * caller may give up first (the platform's attempt timeout): then the proxy stops waiting.
 */
function forwardStep(proxy: ProxyRun): (ctx: ProxyContext) => Promise<void> {
  const { options, clock, summary, secrets } = proxy;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 60_000;
  return async (ctx) => {
    const { exchange, method, answer } = ctx;
    const { wire } = exchange;
    const upstream = ctx.route?.upstream ?? '';
    const callerGone = new AbortController();
    // the caller leaving before the answer (nothing was written yet)
    const off = wire.onClose(() => callerGone.abort());
    const outcome = await forward({
      callerSignal: callerGone.signal,
      method,
      upstream,
      headers: forwardHeaders(exchange.headers),
      body: method === 'GET' || method === 'HEAD' ? undefined : ctx.payload,
      chunked: exchange.transfer === 'chunked',
      timeoutMs: upstreamTimeoutMs,
      clock,
      // default: undici's global dispatcher, which carries --ca / --insecure (src/cli/client-trust.ts)
      dispatcher: options.dispatcher,
    });
    off();
    if (outcome.ok) {
      answer.status = outcome.status;
      answer.headers = outcome.headers;
      answer.body = outcome.body.toString('utf8');
      writeAnswer(wire, outcome);
      return;
    }
    const f = outcome.failure;
    if (f.reason === 'caller-gone' && proxy.stopping) {
      // its caller was cut off by the proxy stopping (Ctrl-C), not by its own limit: on
      // record as it stood, and no failure of the upstream nor a give-up of the caller
      answer.failure = {
        reason: 'interrupted',
        message: 'svc-cli proxy stopped before the upstream answered',
      };
      answer.status = undefined;
      return;
    }
    answer.failure = { reason: f.reason, message: f.message };
    summary.upstreamFailures += 1;
    answer.body = sendError(
      wire,
      f.status,
      f.status === 504 ? 'upstream_timeout' : 'upstream_unreachable',
      `svc-cli proxy: ${f.message} (${secrets.redact(upstream)})`,
      f.reason,
    );
    answer.status = undefined;
  };
}

/**
 * The exchange judged once its answer went back: the answer by the contract (not one the
 * proxy's fault made), the budget, whether it ends the caller's series; counted in the summary
 * and turned into its event and journal record.
 */
function settle(proxy: ProxyRun, ctx: ProxyContext): ProxyContext['seen'] {
  const { options, clock, trackers } = proxy;
  const { route, requestCheck, answer } = ctx;
  if (!route || !requestCheck) return undefined;
  const { leg } = route;
  const { status, failure, fault, forwarded } = answer;
  const durationMs = clock.now() - ctx.started;
  // an answer the proxy's --fault made is not the upstream's: nothing of it to judge
  const answerCheck =
    status === undefined || failure || !forwarded
      ? { errors: [], warnings: [] }
      : checkAnswer(
          leg,
          requestCheck.kind,
          status,
          answer.body,
          options.strict,
          requestCheck.errors.length > 0,
        );
  const budgetMs = proxy.policyOf(leg)?.attemptTimeoutMs;
  const slow =
    budgetMs !== undefined &&
    // the caller giving up near the budget is the platform's timeout itself, though the
    // clock read a few ms short of it (it printed 'caller-gone' beside '3.0 s > 3.0 s');
    // a caller that left long before (its own shorter limit) is not
    (durationMs > budgetMs ||
      (failure?.reason === 'caller-gone' && durationMs >= budgetMs * CALLER_GONE_AT));
  const verdict =
    status === undefined || slow
      ? 'retry'
      : verdictOf(leg, status, answer.body, options.profile?.channelReplies);
  const isAccepted = verdict === 'accepted';
  // not the upstream's failure: the proxy's own fault answered this attempt, its injected
  // delay made it late, or the caller left long before the budget
  const injected =
    !forwarded ||
    (slow && fault?.startsWith('delay') === true) ||
    (failure?.reason === 'caller-gone' && !slow);
  const tracker = trackers.get(leg.name);
  const attempt = ctx.attempt;
  // an exchange the proxy's stop cut off ends no series: what came next is unknown
  const outcome =
    attempt && tracker && failure?.reason !== 'interrupted'
      ? tracker.settle(
          ctx.key,
          isAccepted,
          injected,
          verdict === 'refused' && !injected ? REFUSED : undefined,
        )
      : undefined;
  const marked = attempt
    ? { ...attempt, message: seriesName(ctx.key), ...proxy.profileMark(attempt) }
    : undefined;
  // spec 3, 8: only a CLIENT_MESSAGE the bot never answered hands the chat to an agent; any
  // other event to the bot (AGENT_JOINED, CHAT_CLOSED) is dropped after its attempts
  const then =
    outcome?.kind === 'gave-up' &&
    leg.name === 'provider' &&
    outcome.then.startsWith(HANDS_OVER) &&
    requestCheck.kind !== 'bot.event.CLIENT_MESSAGE'
      ? { ...outcome, then: PROVIDER_DROPS }
      : outcome;
  const departs = marked?.departs === true ? 1 : 0;
  const event: ProxyExchangeEvent = {
    type: 'exchange',
    at: ctx.at,
    protocolMs: ctx.started,
    leg: leg.name,
    caller: leg.caller,
    answerer: leg.answerer,
    method: ctx.method,
    path: ctx.path,
    upstream: route.upstream,
    ...compact({ kind: requestCheck.kind, answerKind: answerCheck.kind }),
    ...(status === undefined ? {} : { status }),
    ...(failure ? { failure } : {}),
    durationMs,
    ...(budgetMs === undefined ? {} : { budgetMs }),
    slow,
    accepted: isAccepted,
    ...(marked ? { attempt: marked } : {}),
    ...(then ? { outcome: then } : {}),
    ...driftOf(leg, options.profile?.kinds, requestCheck.kind, ctx.raw, status),
    requestIssues: [...requestCheck.errors, ...requestCheck.warnings],
    answerIssues: [...answerCheck.errors, ...answerCheck.warnings],
    verdict: {
      // an answer that does not end the series (an integrator's 500, spec 2.2, 8) is no pass,
      // as the line's mark and the summary's notAccepted say
      ok:
        requestCheck.errors.length + answerCheck.errors.length === 0 &&
        !failure &&
        !slow &&
        isAccepted,
      errors: requestCheck.errors.length + answerCheck.errors.length,
      // an attempt off the schedule is the platform's doing, and worth a look: a warning
      warnings: requestCheck.warnings.length + answerCheck.warnings.length + departs,
    },
    ...(fault === undefined ? {} : { fault }),
    forwarded,
  };
  count(proxy.summary, event, trackers);
  const input = journalInput(
    leg,
    event,
    ctx.exchange.headers,
    ctx.raw,
    answer.headers,
    answer.body,
    clock.wallNow() - ctx.wallStarted,
  );
  const endMs = input.protocolMs + (leg.direction === 'out' ? durationMs : 0);
  return { input, event, endMs };
}

/**
 * The record of a body the proxy refused before forwarding it: the request line as the leg's
 * others are recorded, no body but a `<code>` marker (as the platform records one), the answer.
 */
function refusedInput(proxy: ProxyRun, ctx: ProxyContext): ExchangeInput | undefined {
  const { route, refused } = ctx;
  if (!route || !refused) return undefined;
  const { leg, upstream } = route;
  return {
    at: ctx.at,
    protocolMs: ctx.started,
    iface: leg.iface,
    direction: leg.direction,
    request: {
      method: ctx.method,
      url: upstream,
      headers: ctx.exchange.headers,
      body: `<${refused.code}>`,
    },
    response: {
      status: refused.status,
      headers: { 'x-svc-proxy': refused.code },
      body: refused.body,
    },
    durationMs: proxy.clock.now() - ctx.started,
    wallMs: proxy.clock.wallNow() - ctx.wallStarted,
    notes: ['proxy', `leg:${leg.name}`, `not forwarded: ${refused.code}`],
  };
}

/**
 * The request pipeline's journal step (the same as every server side's), then, once the
 * exchange is numbered, its event and the invariants on it.
 */
function journalSeen(proxy: ProxyRun): Middleware<ProxyContext> {
  const { options, invariants } = proxy;
  return journalStep<ProxyContext>(
    () => options.journal,
    (ctx) => ctx.seen?.input ?? refusedInput(proxy, ctx),
    (ctx, seq) => {
      if (!ctx.seen) return;
      const { input, event, endMs } = ctx.seen;
      const numbered = invariants.number(seq);
      options.onEvent?.(event);
      // the platform stamps what it sends when the answer came (the proxy's record, its arrival)
      invariants.check({
        type: 'exchange',
        seq: numbered,
        run: invariants.run,
        ...input,
        at: event.at,
        protocolMs: endMs,
      });
    },
  );
}
