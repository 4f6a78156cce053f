/**
 * `svc-cli proxy`: a transparent forwarder between real parties of one interface,
 * both directions, that validates, times and records every exchange and can inject the fault
 * module's faults on one leg. Requests and answers pass unchanged (status, headers, body,
 * Content-Length or chunked as received), apart from the hop-by-hop headers a proxy must not
 * forward (RFC 9110 7.6.1). The core never prints: it emits `ProxyEvent`s.
 */
import { compact } from '../compact.js';
import { answerDepartures, sentDepartures, type KindProfile } from './drift.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import type { ContractIssue } from '../contract/types.js';
import {
  applyFault,
  createFaultInjector,
  describeFault,
  messageKeyOf,
  type FaultInjector,
  type FaultPlan,
} from '../faults/index.js';
import { DEFAULT_BODY_LIMIT, transferModeOf } from '../http/body.js';
import { tlsProblem } from '../http/client.js';
import {
  requestPathOf,
  listenAt,
  startServer,
  type RunningServer,
  type ServerLimits,
} from '../http/server.js';
import type { TlsServerOptions } from '../http/tls.js';
import { socketWire } from '../http/wire.js';
import {
  createRedactor,
  journalStep,
  type ExchangeInput,
  type ExchangeRecord,
  type Journal,
  type Redactor,
} from '../journal/index.js';
import { judgeChannelReply, type DeliveryPolicy } from '../contract/timing.js';
import { errorBody, type WireErrorCode } from '../wire-errors.js';
import type { InvariantOptions, Violation } from '../trace/invariants.js';
import { watchInvariants } from '../trace/watch.js';
import { checkAnswer, checkRequest } from './check.js';
import {
  defaultFaultLeg,
  legsOf,
  type LegName,
  type LegSpec,
  type ProxyInterface,
} from './legs.js';
import {
  createSeriesTracker,
  type AttemptInfo,
  type SeriesOutcome,
  type SeriesTracker,
} from './series.js';
import { compose, type Middleware, type PipelineContext } from '../http/pipeline.js';

export interface ProxyOptions {
  iface: ProxyInterface;
  /** the real party behind each leg; a leg without one is not served */
  upstreams: Partial<Record<LegName, string>>;
  clock: Clock;
  host?: string;
  port?: number;
  limits?: ServerLimits;
  tls?: TlsServerOptions;
  /** `--allowed-host`: Host names served beside localhost, IP addresses and `host` */
  allowedHosts?: readonly string[];
  journal?: Journal;
  /** faults on one leg (default: the leg the platform calls) */
  plan?: FaultPlan;
  faultLeg?: LegName;
  bodyLimit?: number;
  /** contract warnings count as errors */
  strict?: boolean;
  /** protocol ms the proxy waits for an upstream answer before a 504 (default 60 s) */
  upstreamTimeoutMs?: number;
  /** used for every upstream call (default: undici's global dispatcher) */
  dispatcher?: Dispatcher;
  /**
   * a platform profile's delivery policies (`--profile`): each attempt is placed against its
   * schedule instead of the spec's, and one that departs from it is flagged
   */
  profile?: {
    name: string;
    policies: Partial<Record<LegName, DeliveryPolicy>>;
    /** what the profile learned of each payload kind: the forms sent, the statuses answered */
    kinds?: Readonly<Record<string, KindProfile>>;
  };
  /**
   * the cross-interface invariants checked on the conversations passing through
   * (src/trace/invariants.ts); `disabled` names those not checked
   */
  invariants?: Pick<InvariantOptions, 'disabled'>;
  onEvent?: (event: ProxyEvent) => void;
}

/** An attempt further than this from the profile's schedule departs from it. */
const PROFILE_TOLERANCE_MS = 500;

/** One proxied exchange, as it happened and as judged. */
export interface ProxyExchangeEvent {
  type: 'exchange';
  /** wall time of arrival, ISO 8601 */
  at: string;
  protocolMs: number;
  leg: LegName;
  caller: string;
  answerer: string;
  method: string;
  /** the path on the proxy */
  path: string;
  /** where it was forwarded */
  upstream: string;
  kind?: string;
  answerKind?: string;
  status?: number;
  /** no answer from the upstream (then the caller got a 502 or 504) */
  failure?: { reason: string; message: string };
  /** protocol ms from arrival to the answer */
  durationMs: number;
  /** the spec's budget for this answer (protocol ms) */
  budgetMs?: number;
  /** over the budget: the real platform would have timed out */
  slow: boolean;
  /** the answer ends the caller's series (integrator: a valid reply, spec 2.2; others: 2xx) */
  accepted: boolean;
  /** `message`: the series' message.id (or event id), else `body sha1:...` */
  /**
   * `against`: the profile the attempt is placed against (`--profile`; absent: the spec);
   * `departs`: it is off that profile's schedule or beyond its attempts
   */
  attempt?: AttemptInfo & { message?: string; against?: string; departs?: boolean };
  outcome?: SeriesOutcome;
  /**
   * `--profile`: how the exchange departs from what the profile learned of its kind (a field
   * form the platform never sent, a field it never had, an answer status it never gave)
   */
  drift?: string[];
  /** errors of the request (the caller's) and of the answer (the answerer's) */
  requestIssues: ContractIssue[];
  answerIssues: ContractIssue[];
  /**
   * the exchange in one word, as every role's lines carry it: ok when neither side broke the
   * contract, nothing failed and the answer came within the budget (`--quiet` still prints
   * the others)
   */
  verdict: { ok: boolean; errors: number; warnings: number };
  /** the fault injected, in --fault syntax; `forwarded` false when it replaced the upstream */
  fault?: string;
  forwarded: boolean;
}

export interface ProxySummary {
  type: 'summary';
  exchanges: number;
  byLeg: Partial<Record<LegName, number>>;
  /** exchanges with at least one contract error */
  violations: number;
  /** error count per rule (`kind path: rule`) */
  byRule: Record<string, number>;
  warnings: number;
  slow: number;
  redelivered: number;
  gaveUp: number;
  /** of those, series the party failed by its own doing: what --fail-on-violation counts */
  gaveUpByParty: number;
  upstreamFailures: number;
  /** exchanges the proxy's own --fault changed (its answers are not the upstream's) */
  injected: number;
  /** broken cross-interface invariants, and their count per rule */
  invariantViolations: number;
  byInvariant: Record<string, number>;
}

/**
 * A broken invariant in a conversation that passed through: the rule, its contract section,
 * and the two exchanges it relates (their seq in the `--record` journal, else the proxy's
 * own count of exchanges).
 */
export interface ProxyViolationEvent extends Violation {
  type: 'violation';
}

export type ProxyEvent = ProxyExchangeEvent | ProxySummary | ProxyViolationEvent;

export interface RunningProxy {
  readonly url: string;
  readonly port: number;
  /** the proxy URL of each leg, with the upstream it forwards to */
  readonly legs: readonly { leg: LegSpec; url: string; upstream: string }[];
  summary(): ProxySummary;
  /**
   * Hides the secrets seen so far (the channel's random string, spec 5.1; bot tokens in the
   * paths, spec 5.2) as `***`: for the lines printed and the `--record` journal.
   */
  redact(text: string): string;
  close(graceMs?: number): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 7.6.1) and the framing the forwarder sets again itself. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

function forwardHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `<upstream>` + the rest of the proxy path + the query, without doubled slashes. */
export function upstreamUrlOf(upstream: string, rest: string, search: string): string {
  const base = upstream.replace(/\/+$/, '');
  const tail = rest === '' || rest === '/' ? '' : rest.startsWith('/') ? rest : `/${rest}`;
  return `${base}${tail}${search}`;
}

function readRaw(
  req: IncomingMessage,
  limit: number,
): Promise<{ ok: true; body: Buffer } | { ok: false; status: 413 | 400; message: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(
        over
          ? { ok: false, status: 413, message: `the body is over ${limit} bytes (--body-limit)` }
          : { ok: true, body: Buffer.concat(chunks) },
      ),
    );
    req.on('error', (error) => resolve({ ok: false, status: 400, message: error.message }));
  });
}

/**
 * The proxy's own answer (not the upstream's): `x-svc-proxy` names it, and for an upstream that
 * could not be reached `x-svc-proxy-reason` says how (refused, reset, timeout, ...), so svc-cli's
 * own clients report the party behind the proxy as unreachable, not a 502 as its answer.
 */
function sendError(
  res: ServerResponse,
  status: number,
  code: WireErrorCode,
  message: string,
  reason?: string,
): string {
  const body = JSON.stringify(errorBody(code, message));
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-svc-proxy': code,
      ...(reason === undefined ? {} : { 'x-svc-proxy-reason': reason }),
    });
    res.end(body);
  }
  return body;
}

/** A caller leaving after this share of the budget is the platform's own timeout. */
const CALLER_GONE_AT = 0.9;

/** What a series is called in its lines: the message (or event) id, else the body's hash. */
const seriesName = (key: string): string =>
  key.startsWith('id:') ? key.slice(3) : `body ${key.slice(0, 12)}`;

function failureOf(error: unknown): { status: 502 | 504; reason: string; message: string } {
  if (error instanceof Error && error.name === 'CallerGone')
    return {
      status: 504,
      reason: 'caller-gone',
      message: 'the caller gave up waiting (its own timeout) before the upstream answered',
    };
  const code = (error as { code?: string; cause?: { code?: string } }).code;
  const causeCode = (error as { cause?: { code?: string } }).cause?.code;
  const any = `${code ?? ''} ${causeCode ?? ''}`;
  const message = error instanceof Error ? error.message : String(error);
  if (/TIMEOUT/.test(any) || (error instanceof Error && error.name === 'TimeoutError'))
    return { status: 504, reason: 'timeout', message: 'the upstream did not answer in time' };
  if (/ECONNREFUSED/.test(any))
    return { status: 502, reason: 'refused', message: 'the upstream refused the connection' };
  if (/ECONNRESET|UND_ERR_SOCKET/.test(any))
    return { status: 502, reason: 'reset', message: 'the upstream closed the connection' };
  if (/ENOTFOUND|EAI_AGAIN/.test(any))
    return { status: 502, reason: 'unreachable', message: 'the upstream host is unknown' };
  const tls = tlsProblem(error);
  if (tls !== undefined) return { status: 502, reason: tls.reason, message: tls.message };
  return { status: 502, reason: 'error', message };
}

/** Whether an answer ends a series (the platform stops redelivering), per leg. */
function accepted(leg: LegSpec, status: number, body: string): boolean {
  if (leg.name === 'integrator') return judgeChannelReply({ status, body }).accepted;
  return status >= 200 && status < 300;
}

const GAVE_UP: Record<LegName, string> = {
  integrator: 'the platform shows the agent an error (spec 8: after 9 s)',
  provider: 'the platform hands the chat to an agent (spec 8)',
  receiver: 'the platform does not redeliver hooks (assumed; the spec is silent)',
  platform: '',
};

/**
 * Under a profile: the profile's name, and whether the attempt departs from its schedule (more
 * attempts than it makes, or further than the tolerance from where it puts this one).
 */
function profileMarkOf(name: string | undefined) {
  return (a: AttemptInfo): { against?: string; departs?: boolean } => {
    if (name === undefined) return {};
    const late =
      a.expectedGapMs !== undefined && Math.abs(a.gapMs - a.expectedGapMs) > PROFILE_TOLERANCE_MS;
    const beyond = a.of !== undefined && a.attempt > a.of;
    return { against: name, ...(late || beyond ? { departs: true } : {}) };
  };
}

/** The exchange's departures from the profile's kinds, when there are any (`drift`). */
function driftOf(
  leg: LegSpec,
  kinds: Readonly<Record<string, KindProfile>> | undefined,
  kind: string | undefined,
  body: string,
  status: number | undefined,
): { drift?: string[] } {
  const learned = kinds && kind ? kinds[kind] : undefined;
  if (!learned) return {};
  const drift =
    leg.caller === 'platform'
      ? sentDepartures(learned, body)
      : leg.answerer === 'platform'
        ? answerDepartures(learned, status)
        : [];
  return drift.length > 0 ? { drift } : {};
}

/**
 * Starts the proxy on its own port.
 * @example const proxy = await startProxy({ iface: 'hooks', upstreams: { receiver: 'http://127.0.0.1:8000/hooks' }, clock });
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { clock } = options;
  const profileMark = profileMarkOf(options.profile?.name);
  const legs = legsOf(options.iface).filter((leg) => options.upstreams[leg.name] !== undefined);
  const faultLeg = options.faultLeg ?? defaultFaultLeg(options.iface);
  const hasFaults =
    options.plan !== undefined && Object.values(options.plan).some((v) => v !== undefined);
  const injector: FaultInjector | undefined = hasFaults
    ? createFaultInjector(options.plan)
    : undefined;
  const policyOf = (leg: LegSpec): DeliveryPolicy | undefined =>
    leg.policy && (options.profile?.policies[leg.name] ?? leg.policy);
  const trackers = new Map<LegName, SeriesTracker>(
    legs.map((leg) => [leg.name, createSeriesTracker(policyOf(leg), GAVE_UP[leg.name])]),
  );
  // default: undici's global dispatcher, which carries --ca / --insecure (src/cli/client-trust.ts)
  const dispatcher = options.dispatcher;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 60_000;
  const summary = emptySummary();
  const invariants = invariantFlags(options, summary);

  // the secrets in the URLs: the channel URL's random string, and a bot token as soon as a
  // path shows it (spec 5.1, 5.2)
  const secrets = new Set<string>();
  const channelUrl = options.iface === 'channel' ? options.upstreams.platform : undefined;
  if (channelUrl) {
    const parts = new URL(channelUrl).pathname.split('/').filter(Boolean);
    const random = parts.at(-2);
    if (random) secrets.add(random);
  }
  let redactor: Redactor | undefined;
  const learn = (leg: LegSpec, rest: string): void => {
    if (options.iface !== 'bot') return;
    const parts = rest.split('/').filter(Boolean);
    const token = leg.name === 'provider' ? parts[0] : parts.length >= 3 ? parts.at(-1) : undefined;
    if (token && !secrets.has(token)) {
      secrets.add(token);
      redactor = undefined;
    }
  };
  const redact: Redactor = (text, where) => (redactor ??= createRedactor(secrets))(text, where);

  const routeOf = (path: string): { leg: LegSpec; rest: string } | undefined => {
    for (const leg of legs) {
      if (path === leg.prefix || path.startsWith(`${leg.prefix}/`))
        return { leg, rest: path.slice(leg.prefix.length) };
    }
    return undefined;
  };

  const handler = async (ctx: ProxyContext): Promise<void> => {
    const { req, res, started: arrivedAt, wallStarted: wallStart } = ctx;
    const at = new Date().toISOString();
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const { path } = requestPathOf(target);
    const queryAt = target.indexOf('?');
    const search = queryAt === -1 ? '' : target.slice(queryAt);
    const route = routeOf(path);
    if (!route) {
      req.resume();
      // whoever reaches the port (a tunnel) learns the paths, not the upstreams: a channel URL's
      // random string is its only protection (spec 5.1)
      sendError(
        res,
        404,
        'no_route',
        `svc-cli proxy forwards only ${legs.map((l) => `${l.prefix}/...`).join(', ')}; ${method} ${redact(path)} is none of them`,
      );
      return;
    }
    const { leg, rest } = route;
    learn(leg, rest);
    const upstreamBase = options.upstreams[leg.name] ?? '';
    const upstream = upstreamUrlOf(upstreamBase, rest, search);
    const read = await readRaw(req, bodyLimit);
    if (!read.ok) {
      sendError(res, read.status, read.status === 413 ? 'body_too_large' : 'aborted', read.message);
      return;
    }
    const raw = read.body.toString('utf8');
    const requestCheck = checkRequest(leg, method, path, raw, options.strict);
    const tracker = trackers.get(leg.name);
    let json: unknown;
    try {
      json = raw === '' ? undefined : (JSON.parse(raw) as unknown);
    } catch {
      json = undefined;
    }
    const key = messageKeyOf(json, raw);
    const attempt = method === 'POST' && leg.policy ? tracker?.attempt(key, arrivedAt) : undefined;
    const requestHeaders = flat(req.headers);

    let status: number | undefined;
    let answerHeaders: Record<string, string> = {};
    let answerBody = '';
    let failure: ProxyExchangeEvent['failure'];
    let fault: string | undefined;
    let forwarded = true;

    const decision = injector && leg.name === faultLeg ? injector.decide(key) : undefined;
    if (decision && decision.fault.kind !== 'none') {
      forwarded = false;
      fault = describeFault(decision.fault);
      const applied = await applyFault(
        decision.fault,
        { wire: socketWire(req, res), clock, normal: { status: 200, body: { result: 'ok' } } },
        decision.delayMs,
      );
      if (applied.status !== undefined) status = applied.status;
      answerBody = applied.body ?? '';
      if (applied.noReply) failure = { reason: applied.noReply, message: `fault ${fault}` };
    } else {
      if (decision && decision.delayMs > 0) {
        fault = `delay:${decision.delayMs}`;
        await clock.sleep(decision.delayMs);
      }
      // the caller may give up first (the platform's attempt timeout): stop waiting upstream
      const callerGone = new AbortController();
      const onClose = (): void => {
        if (!res.writableEnded) callerGone.abort();
      };
      res.once('close', onClose);
      const forwardedOutcome = await forward({
        callerSignal: callerGone.signal,
        method,
        upstream,
        headers: forwardHeaders(req.headers),
        body: method === 'GET' || method === 'HEAD' ? undefined : read.body,
        chunked: transferModeOf(req) === 'chunked',
        timeoutMs: upstreamTimeoutMs,
        clock,
        dispatcher,
      });
      res.off('close', onClose);
      if (forwardedOutcome.ok) {
        status = forwardedOutcome.status;
        answerHeaders = forwardedOutcome.headers;
        answerBody = forwardedOutcome.body.toString('utf8');
        writeAnswer(res, forwardedOutcome);
      } else {
        const f = forwardedOutcome.failure;
        failure = { reason: f.reason, message: f.message };
        summary.upstreamFailures += 1;
        answerBody = sendError(
          res,
          f.status,
          f.status === 504 ? 'upstream_timeout' : 'upstream_unreachable',
          `svc-cli proxy: ${f.message} (${redact(upstream)})`,
          f.reason,
        );
        status = undefined;
      }
    }
    const durationMs = clock.now() - arrivedAt;
    // an answer the proxy's --fault made is not the upstream's: nothing of it to judge
    const answerCheck =
      status === undefined || failure || !forwarded
        ? { errors: [], warnings: [] }
        : checkAnswer(leg, requestCheck.kind, status, answerBody, options.strict);
    const budgetMs = policyOf(leg)?.attemptTimeoutMs;
    const slow =
      budgetMs !== undefined &&
      // the caller giving up near the budget is the platform's timeout itself, though the
      // clock read a few ms short of it (it printed 'caller-gone' beside '3.0 s > 3.0 s');
      // a caller that left long before (its own shorter limit) is not
      (durationMs > budgetMs ||
        (failure?.reason === 'caller-gone' && durationMs >= budgetMs * CALLER_GONE_AT));
    const isAccepted = status !== undefined && !slow && accepted(leg, status, answerBody);
    // not the upstream's failure: the proxy's own fault answered this attempt, its injected
    // delay made it late, or the caller left long before the budget
    const injected =
      !forwarded ||
      (slow && fault?.startsWith('delay') === true) ||
      (failure?.reason === 'caller-gone' && !slow);
    const outcome = attempt && tracker ? tracker.settle(key, isAccepted, injected) : undefined;

    const event: ProxyExchangeEvent = {
      type: 'exchange',
      at,
      protocolMs: arrivedAt,
      leg: leg.name,
      caller: leg.caller,
      answerer: leg.answerer,
      method,
      path,
      upstream,
      ...compact({ kind: requestCheck.kind, answerKind: answerCheck.kind }),
      ...(status === undefined ? {} : { status }),
      ...(failure ? { failure } : {}),
      durationMs,
      ...(budgetMs === undefined ? {} : { budgetMs }),
      slow,
      accepted: isAccepted,
      ...(attempt
        ? { attempt: { ...attempt, message: seriesName(key), ...profileMark(attempt) } }
        : {}),
      ...(outcome ? { outcome } : {}),
      ...driftOf(leg, options.profile?.kinds, requestCheck.kind, raw, status),
      requestIssues: [...requestCheck.errors, ...requestCheck.warnings],
      answerIssues: [...answerCheck.errors, ...answerCheck.warnings],
      verdict: {
        ok: requestCheck.errors.length + answerCheck.errors.length === 0 && !failure && !slow,
        errors: requestCheck.errors.length + answerCheck.errors.length,
        warnings: requestCheck.warnings.length + answerCheck.warnings.length,
      },
      ...(fault === undefined ? {} : { fault }),
      forwarded,
    };
    count(summary, event, trackers);
    const input = journalInput(
      leg,
      event,
      requestHeaders,
      raw,
      answerHeaders,
      answerBody,
      clock.wallNow() - wallStart,
    );
    const endMs = input.protocolMs + (leg.direction === 'out' ? durationMs : 0);
    ctx.seen = { input, event, endMs };
  };

  const run = compose<ProxyContext>([journalSeen(options, invariants)], handler);
  const server: RunningServer = await startServer({
    handler: (req, res) =>
      run({
        method: req.method ?? 'GET',
        started: clock.now(),
        wallStarted: clock.wallNow(),
        req,
        res,
      }),
    ...listenAt(options),
  });
  return {
    url: server.url,
    port: server.port,
    legs: legs.map((leg) => ({
      leg,
      url: `${server.url}${leg.prefix}`,
      upstream: options.upstreams[leg.name] ?? '',
    })),
    summary: () => copyOf(summary),
    redact,
    async close(graceMs) {
      await server.close(graceMs);
      invariants.finish();
    },
  };
}

const emptySummary = (): ProxySummary => ({
  type: 'summary',
  exchanges: 0,
  byLeg: {},
  violations: 0,
  byRule: {},
  warnings: 0,
  slow: 0,
  redelivered: 0,
  gaveUp: 0,
  gaveUpByParty: 0,
  upstreamFailures: 0,
  injected: 0,
  invariantViolations: 0,
  byInvariant: {},
});

const copyOf = (s: ProxySummary): ProxySummary => ({
  ...s,
  byLeg: { ...s.byLeg },
  byRule: { ...s.byRule },
  byInvariant: { ...s.byInvariant },
});

/** One request to the proxy on its way through its pipeline. */
interface ProxyContext extends PipelineContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** what the forwarder saw of the exchange: its record, its event, when it ended */
  seen?: { input: ExchangeInput; event: ProxyExchangeEvent; endMs: number };
}

/**
 * The request pipeline's journal step (the same as every server side's), then, once the
 * exchange is numbered, its event and the invariants on it.
 */
function journalSeen(
  options: ProxyOptions,
  invariants: ReturnType<typeof invariantFlags>,
): Middleware<ProxyContext> {
  return journalStep<ProxyContext>(
    () => options.journal,
    (ctx) => ctx.seen?.input,
    (ctx, seq) => {
      if (!ctx.seen) return;
      const { input, event, endMs } = ctx.seen;
      const numbered = invariants.number(seq);
      options.onEvent?.(event);
      // the platform stamps what it sends when the answer came (the proxy's record, its arrival)
      invariants.check({
        type: 'exchange',
        seq: numbered,
        ...input,
        at: event.at,
        protocolMs: endMs,
      });
    },
  );
}

/**
 * The invariants on the conversations passing through (src/trace/watch.ts): each exchange
 * numbered as the `--record` journal numbers it (else counted), each violation counted in the
 * summary and emitted as it shows.
 */
function invariantFlags(options: ProxyOptions, summary: ProxySummary) {
  const watch = watchInvariants(options.invariants);
  let seq = 0;
  const flag = (violations: readonly Violation[]): void => {
    for (const violation of violations) {
      summary.invariantViolations += 1;
      summary.byInvariant[violation.rule] = (summary.byInvariant[violation.rule] ?? 0) + 1;
      options.onEvent?.({ type: 'violation', ...violation });
    }
  };
  return {
    /** the exchange's seq: the journal's, else counted */
    number(journaled: number | undefined): number {
      seq = journaled ?? seq + 1;
      return seq;
    },
    check: (record: ExchangeRecord): void => flag(watch.add(record)),
    /** at close: the conversations still open, checked once more */
    finish: (): void => flag(watch.finish()),
  };
}

function count(
  summary: ProxySummary,
  event: ProxyExchangeEvent,
  trackers: Map<LegName, SeriesTracker>,
): void {
  summary.exchanges += 1;
  summary.byLeg[event.leg] = (summary.byLeg[event.leg] ?? 0) + 1;
  const issues = [...event.requestIssues, ...event.answerIssues];
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) summary.violations += 1;
  summary.warnings += issues.length - errors.length;
  for (const e of errors) {
    const kind = event.requestIssues.includes(e)
      ? (event.kind ?? 'request')
      : (event.answerKind ?? `answer to ${event.kind ?? 'a request'}`);
    const rule = `${kind} ${e.path === '' ? '(root)' : e.path}: ${e.rule}`;
    summary.byRule[rule] = (summary.byRule[rule] ?? 0) + 1;
  }
  if (event.slow) summary.slow += 1;
  if (event.fault !== undefined) summary.injected += 1;
  let redelivered = 0;
  let gaveUp = 0;
  let gaveUpByParty = 0;
  for (const tracker of trackers.values()) {
    redelivered += tracker.redelivered;
    gaveUp += tracker.gaveUp;
    gaveUpByParty += tracker.gaveUpByParty;
  }
  summary.redelivered = redelivered;
  summary.gaveUp = gaveUp;
  summary.gaveUpByParty = gaveUpByParty;
}

function journalInput(
  leg: LegSpec,
  event: ProxyExchangeEvent,
  requestHeaders: Record<string, string>,
  requestBody: string,
  answerHeaders: Record<string, string>,
  answerBody: string,
  wallMs: number,
): ExchangeInput {
  const errors = [...event.requestIssues, ...event.answerIssues].filter(
    (i) => i.severity === 'error',
  );
  const warnings = [...event.requestIssues, ...event.answerIssues].filter(
    (i) => i.severity !== 'error',
  );
  const text = (i: ContractIssue): string => `${i.path === '' ? '(root)' : i.path}: ${i.rule}`;
  const notes = ['proxy', `leg:${leg.name}`];
  // an attempt of the platform's, judged as the platform's journal judges it (spec 8): a slow
  // 200 did not end the series; what read it (trace, coverage, record diff) sees the same
  if (event.attempt)
    notes.push(
      event.accepted
        ? 'accepted'
        : `rejected: ${event.failure?.reason ?? (event.slow ? 'over the budget' : `HTTP ${event.status ?? ''}`)}`,
    );
  if (event.slow) notes.push(`over the ${event.budgetMs ?? 0} ms budget`);
  if (event.outcome?.kind === 'gave-up') notes.push('gave up');
  if (!event.forwarded) notes.push('not forwarded: fault');
  return {
    at: event.at,
    protocolMs: event.protocolMs,
    iface: leg.iface,
    direction: leg.direction,
    ...(event.kind === undefined ? {} : { kind: event.kind }),
    ...(event.attempt ? { attempt: event.attempt.attempt } : {}),
    request: {
      method: event.method,
      url: event.upstream,
      headers: requestHeaders,
      ...(requestBody === '' ? {} : { body: requestBody }),
    },
    ...(event.status === undefined
      ? {}
      : { response: { status: event.status, headers: answerHeaders, body: answerBody } }),
    ...(event.failure ? { failure: event.failure } : {}),
    durationMs: event.durationMs,
    wallMs,
    verdict: { ok: errors.length === 0, errors: errors.map(text), warnings: warnings.map(text) },
    ...(event.fault === undefined ? {} : { fault: event.fault }),
    notes,
  };
}

interface ForwardInput {
  /** aborts when the caller closed its connection before the answer */
  callerSignal: AbortSignal;
  method: string;
  upstream: string;
  headers: Record<string, string | string[]>;
  body: Buffer | undefined;
  chunked: boolean;
  timeoutMs: number;
  clock: Clock;
  dispatcher: Dispatcher | undefined;
}

type Forwarded =
  | {
      ok: true;
      status: number;
      rawHeaders: Record<string, string | string[]>;
      headers: Record<string, string>;
      chunked: boolean;
      body: Buffer;
    }
  | { ok: false; failure: { status: 502 | 504; reason: string; message: string } };

class CallerGone extends Error {
  override readonly name = 'CallerGone';
}

/** One upstream exchange; the timeout runs on the proxy's clock (`--time-scale`). */
async function forward(input: ForwardInput): Promise<Forwarded> {
  const controller = new AbortController();
  const timer = input.clock.setTimer(input.timeoutMs, () => {
    const error = new Error('upstream timeout');
    error.name = 'TimeoutError';
    controller.abort(error);
  });
  const onCallerGone = (): void =>
    controller.abort(new CallerGone('the caller closed the connection before the answer'));
  input.callerSignal.addEventListener('abort', onCallerGone, { once: true });
  try {
    const body =
      input.body === undefined
        ? null
        : input.chunked
          ? Readable.from([input.body], { objectMode: false })
          : input.body;
    const response = await input.clock.track(
      request(input.upstream, {
        method: input.method,
        headers: input.headers,
        body,
        signal: controller.signal,
        ...(input.dispatcher ? { dispatcher: input.dispatcher } : {}),
      }),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const rawHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) rawHeaders[name] = value;
    }
    const te = response.headers['transfer-encoding'];
    return {
      ok: true,
      status: response.statusCode,
      rawHeaders,
      headers: flat(rawHeaders),
      chunked: typeof te === 'string' && /chunked/i.test(te),
      body: Buffer.concat(chunks),
    };
  } catch (error) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
    return { ok: false, failure: failureOf(reason) };
  } finally {
    timer.cancel();
    input.callerSignal.removeEventListener('abort', onCallerGone);
  }
}

/** The upstream's answer to the caller as received: status, headers, framing, body. */
function writeAnswer(res: ServerResponse, answer: Extract<Forwarded, { ok: true }>): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.rawHeaders)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  if (answer.chunked) {
    // as received: chunked framing (node frames the body when this header is set)
    headers['transfer-encoding'] = 'chunked';
    res.writeHead(answer.status, headers);
    if (answer.body.length > 0) res.write(answer.body);
    res.end();
    return;
  }
  headers['content-length'] = String(answer.body.length);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}
