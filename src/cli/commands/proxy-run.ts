/** The body of `svc-cli proxy` (imported lazily): options -> proxy -> serve -> summary. */
import { loadProfile, settingsOf } from '../../conversation/record/profile.js';
import { createClock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { isNonLoopbackHost } from '../../http/server.js';
import {
  defaultFaultLeg,
  legsOf,
  startProxy,
  type LegName,
  type ProxyInterface,
  type ProxyOptions,
  type ProxySummary,
} from '../../proxy/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { createOutput } from '../render/output.js';
import { formatProxyEvent, formatProxyListening, type ProxyListening } from '../render/proxy.js';
import { serveUntilAborted } from '../serve.js';
import {
  buildFaultPlan,
  faultsBannerText,
  openRecordJournal,
  recordPolicyOf,
  serverTls,
} from '../serving-flags.js';
import { proxyOptions } from './proxy-options.js';
import { checkInvariantNames } from '../../trace/invariants.js';
import { redactChannelUrl } from './config-run.js';

/** The banner's faults: what the proxy answers in place of the upstream on one leg. */
function faultsOf(flags: string | undefined, leg: LegName): Pick<ProxyListening, 'faults'> {
  return flags === undefined ? {} : { faults: { flags, leg } };
}

const UPSTREAM_FLAG: Record<LegName, string> = {
  platform: '--platform-url',
  integrator: '--integrator-url',
  provider: '--provider-url',
  receiver: '--receiver-url',
};

/** The option key of each upstream flag. */
const FLAG_KEY: Record<LegName, string> = {
  platform: 'platformUrl',
  integrator: 'integratorUrl',
  provider: 'providerUrl',
  receiver: 'receiverUrl',
};

/**
 * A smoke job fails on a broken payload, on a party that never answered a message validly (the
 * platform gave up on it) and on a broken invariant, but not on what the proxy's own --fault did.
 */
const failedRun = (s: ProxySummary): boolean =>
  s.violations + s.gaveUpByParty + s.invariantViolations > 0;

type ProxyRunOptions = ReturnType<typeof resolveForCommand<typeof proxyOptions>>;

/**
 * The upstream of each leg the flags give, checked: a flag for another interface's leg, no
 * upstream at all, or --fault-on a leg not forwarded here is an options error.
 */
function upstreamsOf(
  iface: string,
  options: Pick<
    ProxyRunOptions,
    'platformUrl' | 'integratorUrl' | 'providerUrl' | 'receiverUrl' | 'faultOn'
  >,
  flags: Record<string, unknown>,
): { upstreams: Partial<Record<LegName, string>>; faultLeg: LegName | undefined } {
  const legs = legsOf(iface as ProxyInterface);
  const upstreams: Partial<Record<LegName, string>> = Object.fromEntries(
    Object.entries({
      platform: options.platformUrl,
      integrator: options.integratorUrl,
      provider: options.providerUrl,
      receiver: options.receiverUrl,
    }).filter(([, url]) => url !== undefined),
  );
  const given = legs.filter((leg) => upstreams[leg.name] !== undefined);
  // a flag for another interface is a mistake; the same key from svc.config.json or SVC_* is
  // another command's setting (the file's top-level integratorUrl is the platform's)
  const foreign = (Object.keys(upstreams) as LegName[]).filter(
    (name) => flags[FLAG_KEY[name]] !== undefined && !legs.some((leg) => leg.name === name),
  );
  for (const name of Object.keys(upstreams) as LegName[])
    if (!legs.some((leg) => leg.name === name)) delete upstreams[name];
  if (foreign.length > 0) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not start proxy ${iface}: ${foreign.map((n) => UPSTREAM_FLAG[n]).join(', ')} is not an upstream of ${iface}.`,
      `proxy ${iface} takes ${legs.map((l) => UPSTREAM_FLAG[l.name]).join(' and ')}.`,
    );
  }
  if (given.length === 0) {
    throw new SvcError(
      'SVC_E_PROXY_UPSTREAM',
      `Could not start proxy ${iface}: no upstream to forward to.`,
      `Give ${legs.map((l) => UPSTREAM_FLAG[l.name]).join(' and/or ')}; see svc-cli proxy --help.`,
    );
  }
  const faultLeg: LegName | undefined = options.faultOn;
  if (faultLeg !== undefined && !given.some((leg) => leg.name === faultLeg)) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --fault-on ${faultLeg}: proxy ${iface} forwards no ${faultLeg} leg here.`,
      `Its legs: ${given.map((l) => l.name).join(', ')}.`,
    );
  }
  return { upstreams, faultLeg };
}

/** The schedules attempts are placed against: the spec's, or a profile's (docs/drift.md). */
async function profileOf(name: string, cwd: string): Promise<ProxyOptions['profile']> {
  if (name === 'spec') return undefined;
  const loaded = await loadProfile(name, cwd);
  const settings = settingsOf(loaded);
  return {
    // the name the profile gives itself (`record profile --name`, the recording's by default),
    // as docs and the lines read it: "off the schedule of profile real", not of its file name
    name: loaded.name,
    policies: { integrator: settings.channelPolicy, provider: settings.botPolicy },
    ...(settings.channelReplies === 'docs' ? { channelReplies: settings.channelReplies } : {}),
    ...(loaded.kinds ? { kinds: loaded.kinds } : {}),
  };
}

/**
 * Serves the proxy until ctx.signal aborts; returns 1 with --fail-on-violation when an
 * exchange broke the contract.
 * @example await runProxy(ctx, 'hooks', { receiverUrl: 'http://127.0.0.1:9200/hooks' });
 */
export async function runProxy(
  ctx: CliContext,
  iface: string,
  flags: Record<string, unknown>,
): Promise<number> {
  const options = resolveForCommand(ctx, proxyOptions, flags);
  const disabled = checkInvariantNames(options.invariant ?? []);
  const out = createOutput(ctx, { json: options.json, quiet: options.quiet });
  const { upstreams, faultLeg } = upstreamsOf(iface, options, flags);
  const plan = await buildFaultPlan(ctx, options);
  if (isNonLoopbackHost(options.host)) {
    out.note(
      `warning: --host ${options.host} exposes the proxy beyond this machine: anyone who reaches it reaches your upstreams through it.`,
    );
  }
  const tls = await serverTls(ctx, options, (line) => out.note(line));
  // the proxy learns its secrets from the traffic (a bot token in a path); the journal and the
  // lines hide them as they are seen, unless --show-secrets
  let hide = (text: string): string => text;
  const journal = openRecordJournal(
    ctx,
    options.record,
    options.showSecrets,
    options.showSecrets ? undefined : (text) => hide(text),
    recordPolicyOf(options, out),
  );
  const clock = createClock({ timeScale: options.timeScale });
  const profile = await profileOf(options.profile, ctx.cwd);
  const proxy = await startProxy({
    iface: iface as ProxyInterface,
    upstreams,
    clock,
    host: options.host,
    allowedHosts: options.allowedHost,
    port: options.port,
    ...(tls ? { tls } : {}),
    journal,
    plan,
    ...(faultLeg ? { faultLeg } : {}),
    bodyLimit: options.bodyLimit,
    strict: options.strict,
    upstreamTimeoutMs: options.upstreamTimeout,
    ...(profile ? { profile } : {}),
    invariants: { disabled },
    onEvent: (event) =>
      out.event(
        event.type === 'exchange' && !options.showSecrets
          ? { ...event, path: hide(event.path), upstream: hide(event.upstream) }
          : event,
        formatProxyEvent,
      ),
  });
  hide = (text) => proxy.redact(text);
  // only a channel URL (proxy channel's platform leg) hides a segment by its place, the
  // random string before the public id (spec 4.1); any other upstream of two segments (a
  // receiver's /webhook/<name>) is shown as given, its secrets hidden as the traffic shows them
  const shown = (url: string, leg: LegName): string =>
    options.showSecrets
      ? url
      : iface === 'channel' && leg === 'platform'
        ? redactChannelUrl(proxy.redact(url))
        : proxy.redact(url);
  await serveUntilAborted<ProxyListening>(ctx, {
    out,
    listening: {
      type: 'listening',
      url: proxy.url,
      iface,
      ...(profile ? { profile: profile.name } : {}),
      ...faultsOf(
        plan && faultsBannerText(plan),
        faultLeg ?? defaultFaultLeg(iface as ProxyInterface),
      ),
      legs: proxy.legs.map(({ leg, url, upstream }) => ({
        leg: leg.name,
        caller: leg.caller,
        url,
        upstream: shown(upstream, leg.name),
      })),
    },
    format: formatProxyListening,
    servers: [proxy],
    journals: [journal],
  });
  const summary = proxy.summary();
  out.event(summary, formatProxyEvent);
  await out.flush();
  if (options.failOnViolation && failedRun(summary)) {
    ctx.verdictAfterSignal = 1;
    return 1;
  }
  return 0;
}
