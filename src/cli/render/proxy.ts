/**
 * `svc-cli proxy` lines: one per exchange (time, leg, method, kind, status,
 * latency against the spec's budget, attempt of a series), the issues below it, and the
 * summary on exit.
 */
import type { ChalkInstance } from 'chalk';
import type {
  ProxyEvent,
  ProxyUnroutedEvent,
  ProxyExchangeEvent,
  ProxySummary,
  ProxyViolationEvent,
} from '../../proxy/index.js';
import { violationLine } from '../../trace/invariants.js';
import { formatIssueLine } from './exchange.js';
import { stamp } from './time.js';
import { plural } from '../../plural.js';

const arrow = (e: ProxyExchangeEvent): string =>
  e.caller === 'platform' ? `platform → ${e.answerer}` : `${e.caller} → platform`;

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function attemptText(e: ProxyExchangeEvent): string | undefined {
  const a = e.attempt;
  if (!a || (a.attempt === 1 && (a.of ?? 1) <= 1)) return undefined;
  // a first attempt that was answered needs no line: "attempt 1/2" under every bot event
  // that succeeded said nothing; it still shows when a retry follows or series interleave
  const answered = e.accepted && !e.slow && !e.failure && e.status !== undefined && e.status < 300;
  if (a.attempt === 1 && answered && a.message === undefined) return undefined;
  // interleaved series (a second agent message while the first is redelivered) tell apart
  const of = `${a.of === undefined ? '' : `/${a.of}`}${a.message === undefined ? '' : ` of ${a.message}`}`;
  if (a.attempt === 1) return `attempt 1${of}`;
  const expected = a.expectedGapMs === undefined ? '' : `, expected +${seconds(a.expectedGapMs)}`;
  const whose =
    a.against === undefined || a.against === 'spec' ? 'the spec' : `profile ${a.against}`;
  const beyond =
    a.of !== undefined && a.attempt > a.of
      ? ` (beyond the ${a.of} attempts of ${whose}${whose === 'the spec' ? ', spec 8' : ''})`
      : a.departs
        ? ` (off the schedule of ${whose}${whose === 'the spec' ? sooner(a.gapMs, a.expectedGapMs) : ''})`
        : '';
  return `attempt ${a.attempt}${of} at +${seconds(a.gapMs)}${expected}${beyond}`;
}

/**
 * A redelivery far sooner than its schedule is, on one machine, most often a platform started
 * with a smaller --time-scale than the proxy's: say so, and how to line them up.
 */
function sooner(gapMs: number, expectedGapMs: number | undefined): string {
  if (expectedGapMs === undefined || expectedGapMs <= 0 || gapMs <= 0) return '';
  const ratio = gapMs / expectedGapMs;
  if (ratio > 0.5) return '';
  const times = ratio < 0.2 ? Math.round(1 / ratio) : Number((1 / ratio).toFixed(1));
  return `: ${times}× sooner, as a platform started with a --time-scale ${times}× below the proxy's resends; give the proxy the platform's --time-scale`;
}

/**
 * Why the platform tries an integrator's answer again, on a series' first attempt: a line
 * with a bare 404 never said that the platform posts to the URL with the channel id.
 */
function integratorRefusal(e: ProxyExchangeEvent): string | undefined {
  if (e.leg !== 'integrator' || e.status === undefined || e.accepted || !e.forwarded) return;
  if ((e.attempt?.attempt ?? 1) !== 1) return;
  if (e.status === 404)
    return `integrator: HTTP 404 at ${e.upstream}: the platform posts to <integrator URL>/<channel public id>; serve that path (spec 4.2)`;
  if (e.status !== 200)
    return `integrator: HTTP ${e.status}; the platform takes only 200 with {"result":"ok"} or an error object, else it tries again (spec 2.2, 4.2, 8)`;
  // a 200 whose body is no reply (`{"ok":true}`): its issues name a field, not what to send
  if (e.slow || !e.answerIssues.some((i) => i.severity === 'error')) return undefined;
  return 'integrator: HTTP 200, but not a reply the platform takes: only {"result":"ok"} or {"error":{"code","message"}} ends the series, else it tries again (spec 2.2, 4.2, 8)';
}

/**
 * Why the platform answered 404 (spec 4.1: no channel with that public id, or a wrong random
 * string): most often a --platform-url that is the platform's address, not the channel URL.
 */
function platformRefusal(e: ProxyExchangeEvent): string | undefined {
  if (e.leg !== 'platform' || e.status !== 404 || !e.forwarded) return undefined;
  return `platform: HTTP 404 at ${e.upstream}: no channel at this URL: its public id is unknown or its random string is wrong (spec 4.1); --platform-url takes the channel URL, {base_url}/<random_string>/<channel_public_id>`;
}

/** One exchange: `12:00:01.204 +3.000s  platform → integrator  POST /integrator/shop  channel.agent.text  200  12 ms  ✓` */
export function formatProxyExchange(e: ProxyExchangeEvent, c: ChalkInstance): string {
  const errors = [...e.requestIssues, ...e.answerIssues].filter((i) => i.severity === 'error');
  const ok = errors.length === 0 && !e.failure && !e.slow && e.accepted;
  // the caller got the proxy's --fault, not the upstream's answer: no pass, and not the
  // upstream's failure either (the summary counts these apart)
  const injected = e.fault !== undefined && !e.forwarded;
  const held = e.failure?.reason === 'hang';
  // answered well, but sent off the schedule or departing from the profile (the platform's
  // doing): a warning, not a pass
  const mark = injected
    ? c.magenta('✗')
    : !ok
      ? c.red('✗')
      : e.attempt?.departs || (e.drift?.length ?? 0) > 0
        ? c.yellow('!')
        : c.green('✓');
  const status =
    e.status === undefined
      ? c.red(e.failure?.reason ?? 'no answer')
      : e.status >= 200 && e.status < 300
        ? c.green(String(e.status))
        : c.yellow(String(e.status));
  const budget = held
    ? // the exchange is journaled when the proxy stops answering: the caller waits on
      c.magenta('held open')
    : e.budgetMs === undefined
      ? seconds(e.durationMs)
      : e.failure?.reason === 'caller-gone' && e.caller === 'platform' && e.slow
        ? c.red(`${seconds(e.durationMs)}: the platform timed out (${seconds(e.budgetMs)}, spec 8)`)
        : e.slow
          ? c.red(
              `${seconds(e.durationMs)} > ${seconds(e.budgetMs)}: the platform would have timed out`,
            )
          : seconds(e.durationMs);
  const head = [
    c.dim(stamp(e.protocolMs)),
    arrow(e).padEnd(28),
    `${e.method} ${e.path}`,
    c.cyan(e.kind ?? '?'),
    status,
    budget,
    mark,
  ].join('  ');
  const lines = [head];
  const attempt = attemptText(e);
  if (attempt) lines.push(`    ${c.yellow(attempt)}`);
  if (e.fault !== undefined) {
    const how = !injected
      ? ''
      : held
        ? ': held open by the proxy until the caller gives up, not forwarded'
        : e.failure?.reason === 'reset'
          ? ': connection reset by the proxy, not forwarded'
          : ': answered by the proxy, not forwarded';
    lines.push(`    ${c.magenta(`fault ${e.fault}${how}`)}`);
  }
  // a fault's own failure ("fault hang") says no more than the line above; an upstream's
  // names it, as the answer's body does: "the upstream" alone sent readers to the banner
  if (e.failure && !(injected && e.failure.message === `fault ${e.fault}`))
    lines.push(
      `    ${c.red(e.failure.message.startsWith('the upstream') ? `${e.failure.message} (${e.upstream})` : e.failure.message)}`,
    );
  // the real platform changed since the profile was learned
  for (const line of e.drift ?? [])
    lines.push(`    ${c.yellow(`drift from the profile: ${line}`)}`);
  for (const issue of e.requestIssues)
    lines.push(
      `    ${(issue.severity === 'error' ? c.red : c.yellow)(`${e.caller}: ${formatIssueLine(issue)}`)}`,
    );
  for (const issue of e.answerIssues)
    lines.push(
      `    ${(issue.severity === 'error' ? c.red : c.yellow)(`${e.answerer}: ${formatIssueLine(issue)}`)}`,
    );
  const why = integratorRefusal(e) ?? platformRefusal(e);
  if (why !== undefined) lines.push(`    ${c.yellow(why)}`);
  if (e.outcome?.kind === 'delivered' && e.outcome.attempts > 1)
    lines.push(`    ${c.green(`delivered on attempt ${e.outcome.attempts}`)}`);
  if (e.outcome?.kind === 'gave-up')
    lines.push(
      `    ${c.red(`no valid answer after ${plural(e.outcome.attempts, 'attempt')}: ${e.outcome.then}`)}`,
    );
  return lines.join('\n');
}

export function formatProxySummary(s: ProxySummary, c: ChalkInstance): string {
  // per leg, named as the banner names them: "platform 1" read as one call the platform made
  const legs = Object.entries(s.byLeg)
    .map(([leg, n]) => `${n} on the ${leg} leg`)
    .join(', ');
  const lines = [
    `${c.bold('proxy summary')}: ${plural(s.exchanges, 'exchange')}${legs ? ` (${legs})` : ''}, ` +
      `${s.violations === 0 ? c.green('0 with contract errors') : c.red(`${s.violations} with contract errors`)}, ` +
      `${plural(s.warnings, 'warning')}${s.drift === 0 ? '' : `, ${c.yellow(plural(s.drift, 'drift line'))} from the profile`}, ${s.slow === 0 ? '0 slow' : c.red(`${s.slow} slow`)}, ` +
      `${s.notAccepted === 0 ? '0 not accepted' : c.red(`${s.notAccepted} not accepted`)}, ` +
      `${s.redelivered} redelivered, ${s.gaveUp === 0 ? '0 given up' : c.red(`${s.gaveUp} given up${s.gaveUpByParty === s.gaveUp ? '' : ` (${s.gaveUpByParty} by the upstream)`}`)}, ` +
      `${s.upstreamFailures === 0 ? '0 upstream failures' : c.red(`${s.upstreamFailures} upstream failures`)}`,
  ];
  // an injected 500 is redelivered, not a contract error: say where it came from
  if (s.injected > 0)
    lines[0] += `; ${c.yellow(`${s.injected} changed by --fault`)} (not the upstream's doing)`;
  if (s.invariantViolations > 0)
    lines[0] += `, ${c.red(plural(s.invariantViolations, 'broken invariant'))}`;
  for (const [rule, n] of Object.entries(s.byRule).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${c.red(`${n} x`)} ${rule}`);
  for (const [rule, n] of Object.entries(s.byInvariant).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${c.red(`${n} x`)} invariant ${rule} (--no-invariant ${rule} switches it off)`);
  return lines.join('\n');
}

/** A broken invariant: `✗ invariant transcript (spec 2.6): ... [exchanges #3 and #9; ...]` */
export function formatProxyViolation(v: ProxyViolationEvent, c: ChalkInstance): string {
  return `${c.red('✗')} ${c.red(`invariant ${violationLine(v)}`)}`;
}

/**
 * A path no leg serves: `! POST /webhook/x: not proxied (answered 404); point the platform's
 * hook URL at http://127.0.0.1:8443/hooks`.
 */
export function formatProxyUnrouted(e: ProxyUnroutedEvent, c: ChalkInstance): string {
  if (e.code !== 'no_route')
    return `${c.yellow('!')} ${c.yellow(`${e.method} ${e.path}: refused (answered ${e.status} ${e.code})`)}; ${e.message}`;
  if (e.missing)
    return `${c.yellow('!')} ${c.yellow(`${e.method} ${e.path}: not proxied (answered ${e.status})`)}; the proxy was started without ${e.missing.flag}, the upstream this path forwards to: start it with ${e.missing.flag} <url> too`;
  const ways = (e.serves ?? []).map(({ leg, caller, url }) =>
    leg === 'receiver'
      ? `point the platform's hook URL at ${url}`
      : leg === 'integrator'
        ? `point the channel's integrator URL at ${url}`
        : leg === 'provider'
          ? `point the bot provider URL at ${url}`
          : `your ${caller} calls ${url}/...`,
  );
  return `${c.yellow('!')} ${c.yellow(`${e.method} ${e.path}: not proxied (answered ${e.status})`)}; ${ways.join('; ')}`;
}

export function formatProxyEvent(event: ProxyEvent, c: ChalkInstance): string {
  switch (event.type) {
    case 'exchange':
      return formatProxyExchange(event, c);
    case 'violation':
      return formatProxyViolation(event, c);
    case 'request-rejected':
      return formatProxyUnrouted(event, c);
    case 'summary':
      return formatProxySummary(event, c);
    default: {
      const never: never = event;
      return JSON.stringify(never);
    }
  }
}

/** The listening event of `proxy`: the URL, then which URL each caller uses and where it goes. */
export interface ProxyListening {
  type: 'listening';
  url: string;
  iface: string;
  legs: { leg: string; caller: string; url: string; upstream: string }[];
  /** the profile attempts are placed against (`--profile`), when not the spec */
  profile?: string;
  /** the faults given at start (`--fail-first 2`) and the leg they answer on (`--fault-on`) */
  faults?: { flags: string; leg: string };
}

export function formatProxyListening(e: ProxyListening, c: ChalkInstance): string {
  const lines = [`svc proxy ${e.iface} listening on ${c.bold(e.url)}`];
  for (const leg of e.legs) {
    const who = leg.caller === 'platform' ? 'the platform calls' : `your ${leg.caller} calls`;
    // spec 4.2: the platform adds the channel's public id to the integrator URL, both sides
    const id = leg.leg === 'integrator' ? '/<channel id>' : '';
    lines.push(`  ${`${who}`.padEnd(26)} ${c.cyan(`${leg.url}${id}`)}  ->  ${leg.upstream}${id}`);
  }
  if (e.profile !== undefined)
    lines.push(
      `  ${'profile'.padEnd(26)} ${e.profile}: attempts are placed against its schedules, not the spec's`,
    );
  // the proxy answers these itself, in place of the upstream: said before the first request
  if (e.faults !== undefined)
    lines.push(
      `  ${'faults'.padEnd(26)} ${c.yellow(e.faults.flags)} on the ${e.faults.leg} leg ${c.dim('(from the first request; --fault-on picks the leg)')}`,
    );
  return lines.join('\n');
}
