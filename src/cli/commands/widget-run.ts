import { setTimeout as delay } from 'node:timers/promises';
import { createClock } from '../../clock.js';
import { createPlatform, type Platform } from '../../platform/index.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { startDemoServer } from '../../web/demo-server.js';
import { controlAccessOf, createRecordJournal, serverTls } from '../serving-flags.js';
import { consoleUrlOf, printControlToken } from '../control-banner.js';
import type { CliContext } from '../context.js';
import { SvcError, systemReason } from '../../errors.js';
import { CONSOLE_EVENT_HISTORY, createConsoleService } from '../../web/console-service.js';
import { createDocsService } from '../../web/docs-service.js';
import { resolveForCommand } from '../options/resolve.js';
import { widgetOptions } from './widget-options.js';
import { coreOptionsOf, loadProfile, settingsOf } from '../../conversation/record/profile.js';
import { createOutput } from '../render/output.js';
import { formatPlatformEvent } from '../render/platform-events.js';
import { waitForAbort } from '../serve.js';

/** `svc-cli widget`: simulator (unless --platform-url) + demo page, until SIGINT/SIGTERM. */
export async function runWidget(
  ctx: CliContext,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, widgetOptions, given);
  const globals = flags;
  const out = createOutput(ctx, { json: globals.json });
  const { port, platformPort, hookUrl } = flags;
  const platformGiven = flags.platformUrl && simulatorBase(flags.platformUrl);
  if (platformGiven) refuseStartedSimulatorFlags(flags);
  // one port for both servers: the simulator took it, and the page's start was refused as if
  // "another program" held it
  if (!platformGiven && port !== 0 && port === platformPort)
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not use --port ${port}${given.port === undefined && ctx.env.SVC_PORT === String(port) ? ` (from SVC_PORT=${port})` : ''} and --platform-port ${platformPort}: the demo page and the simulator started here need a port each.`,
      'Give --platform-port another port, or leave it out for any free one.',
    );
  if (platformGiven && flags.platformUrl?.includes('/_sim'))
    out.note(`--platform-url: using the simulator at ${platformGiven}`);
  const host = { host: flags.host, allowedHosts: flags.allowedHost };
  // the token guards the simulator started here; a --platform-url one has its own
  const control = controlAccessOf(platformGiven ? { ...flags, host: '127.0.0.1' } : flags);
  if (isNonLoopbackHost(flags.host)) {
    out.note(
      `warning: binding ${flags.host} exposes the simulator beyond this machine${platformGiven ? '' : `; its control API and console want the control token${control.generated ? ' printed below' : ' --control-token gave'}`}`,
    );
  }
  // a page wired to nothing showed "online"; a --platform-url that answers no svc
  // widget channel is refused at start (exit 3), as replay --platform-url does
  const consoleThere = platformGiven
    ? await assertWidgetChannel(platformGiven, flags.platformWait * 1000, ctx.signal, (reason) =>
        out.note(`waiting for the simulator at ${platformGiven} (${reason}) …`),
      )
    : true;
  if (ctx.signal.aborted) return 0; // stopped while waiting for it
  const tls = await serverTls(ctx, flags, (line) => out.note(line));
  let platform: Platform | undefined;
  let platformUrl = platformGiven ?? '';
  const settings = settingsOf(await loadProfile(flags.profile, ctx.cwd));
  // the console's empty chat list points at the demo page, once it listens
  const page: { url?: string } = {};
  if (!platformGiven) {
    platform = createPlatform({
      ...coreOptionsOf(settings),
      clock: createClock({ timeScale: globals.timeScale }),
      journal: createRecordJournal(ctx, flags.record),
      agentsOnline: flags.agents !== 'offline',
      services: [createConsoleService({ pageUrl: () => page.url }), createDocsService()],
      eventHistory: CONSOLE_EVENT_HISTORY,
      ...(hookUrl ? { hooks: { url: hookUrl, events: settings.hookEvents } } : {}),
    });
    platformUrl = (
      await platform.listen({
        port: platformPort,
        portFlag: '--platform-port',
        tls,
        ...host,
        access: control.access,
      })
    ).url;
  }
  const consoleUrl = platform ? consoleUrlOf(platformUrl, control) : `${platformUrl}/_sim/console/`;
  // the page's double follows the docs readings of the JS API when the profile has them
  const pageProfile =
    settings.attributeCallsPerHour === undefined ? {} : { profile: 'docs' as const };
  const demo = await startDemoServer({
    platformUrl,
    consoleUrl,
    port,
    tls,
    ...host,
    ...pageProfile,
  });
  page.url = demo.url;
  out.event(
    {
      type: 'listening',
      url: demo.url,
      platformUrl,
      consoleUrl,
      started: platform !== undefined,
      ...(platform && control.generated ? { controlToken: control.token } : {}),
    },
    () => undefined,
  );
  const c = out.chalk;
  out.line(c.bold('svc widget'));
  out.line(`  demo page      ${c.cyan(demo.url)}`);
  out.line(
    `  agent console  ${consoleThere ? c.cyan(consoleUrl) : c.yellow('none there: the simulator serves it with --web (svc-cli platform --web)')}`,
  );
  if (platform) printControlToken(out, control);
  out.line(`  simulator      ${c.cyan(platformUrl)}${platform ? c.dim(' (started here)') : ''}`);
  out.line(c.dim('Open the page, type in its chat box, answer in the console; Ctrl-C stops.'));
  const off = platform?.core.on((event) => out.event(event, formatPlatformEvent));
  await waitForAbort(ctx.signal);
  off?.();
  await demo.close(500);
  await platform?.close();
  out.note('stopped');
  return 0;
}

/** How often a widget asks a --platform-url that refused it again. */
const PLATFORM_POLL_MS = 200;

/**
 * The simulator's base URL from what a user pastes: the console's or the control API's URL
 * (`.../_sim/console/`, the address the banner prints) names the simulator in front of `/_sim`;
 * a trailing slash goes.
 * @example simulatorBase('http://127.0.0.1:8800/_sim/console/') // 'http://127.0.0.1:8800'
 */
export function simulatorBase(url: string): string {
  const at = url.indexOf('/_sim');
  return (at === -1 ? url : url.slice(0, at)).replace(/\/+$/, '');
}

/**
 * The running simulator's widget channel answers, or the command ends with why (exit 3). A
 * platform started in the same line (`platform --web & widget --platform-url ...`) may not
 * listen yet: a refused connection is tried again for up to `waitMs` (--platform-wait).
 * Resolves to whether the simulator serves the agent console (`--web`).
 */
async function assertWidgetChannel(
  platformUrl: string,
  waitMs: number,
  signal: AbortSignal,
  onWait: (reason: string) => void,
): Promise<boolean> {
  const started = Date.now();
  let waited = false;
  for (;;) {
    let reason: string;
    let refused = false;
    // something listens there, but not a simulator (the demo page's own URL, another server)
    let other = false;
    try {
      const response = await fetch(`${platformUrl}/_sim/widget/visitors`, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(3000)]),
      });
      await response.body?.cancel();
      if (response.ok) return await servesConsole(platformUrl, signal);
      reason = `GET /_sim/widget/visitors answered HTTP ${response.status}: not an svc simulator`;
      other = true;
    } catch (error) {
      if (signal.aborted) return false;
      const cause = (error as { cause?: unknown }).cause;
      refused = (cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
      reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'no answer within 3 s'
          : (cause as Error | undefined)?.message === 'bad port'
            ? // the fetch standard's blocked ports (1, 6000, 6667 ...): the page could not either
              `port ${new URL(platformUrl).port} is one that browsers and fetch refuse to connect to, so the demo page could not reach it either; run the simulator on another port`
            : systemReason(cause ?? error);
    }
    if (refused && Date.now() - started < waitMs) {
      if (!waited) onWait(reason);
      waited = true;
      // Ctrl-C while waiting: the caller sees the aborted signal
      const stopped = await delay(PLATFORM_POLL_MS, false, { signal }).catch(() => true);
      if (stopped) return false;
      continue;
    }
    throw new SvcError(
      'SVC_E_PEER_UNREACHABLE',
      `Could not use --platform-url ${platformUrl}: ${reason}${waited ? ` (waited ${waitMs / 1000} s)` : ''}.`,
      // starting one on that port fails while the other program holds it
      other
        ? `Another program listens on port ${portOf(platformUrl)}: give --platform-url the simulator's address (the "simulator" line widget prints, or the one \`svc-cli platform\` prints), or leave --platform-url out to start one here.`
        : `Start one with \`svc-cli platform --web --port ${portOf(platformUrl)}\`, or leave --platform-url out to start one here.`,
    );
  }
}

/**
 * The port a simulator must listen on to be the one --platform-url names (the scheme's
 * default when the URL gives none), so the hint starts that one, not another.
 * @example portOf('http://127.0.0.1:8801') // '8801'
 */
function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

/**
 * --platform-url: the flags that set up the simulator widget starts would be dropped without
 * a word (a page "online" for --agents offline): refused, as replay refuses --profile there.
 */
function refuseStartedSimulatorFlags(flags: {
  agents: string;
  hookUrl?: string | undefined;
  platformPort: number;
  record?: string | undefined;
}): void {
  const given = [
    flags.agents === 'offline' ? '--agents offline' : undefined,
    flags.hookUrl === undefined ? undefined : '--hook-url',
    flags.platformPort === 0 ? undefined : '--platform-port',
    flags.record === undefined ? undefined : '--record',
  ].filter((flag) => flag !== undefined);
  if (given.length === 0) return;
  // the hint names the flags given, as platform spells them (--platform-port is its --port):
  // it listed --agents offline --hook-url <url> --record <file> whichever one was given
  const forPlatform = [
    flags.agents === 'offline' ? '--agents offline' : undefined,
    flags.hookUrl === undefined ? undefined : `--hook-url ${flags.hookUrl}`,
    flags.platformPort === 0 ? undefined : `--port ${flags.platformPort}`,
    flags.record === undefined ? undefined : `--record ${flags.record}`,
  ].filter((flag) => flag !== undefined);
  throw new SvcError(
    'SVC_E_FLAG',
    `Could not use ${given.join(', ')} with --platform-url: ${given.length === 1 ? 'it sets' : 'they set'} up the simulator widget starts, and --platform-url uses one already running.`,
    `Start that simulator with ${given.length === 1 ? 'it' : 'them'} (svc-cli platform --web ${forPlatform.join(' ')}), or leave out --platform-url.`,
  );
}

/**
 * Whether the simulator at `platformUrl` serves the agent console (`platform --web`), as its
 * state says: asking for the console page itself put a red 404 line for a request of
 * widget's own in the terminal of a simulator started without --web.
 */
async function servesConsole(platformUrl: string, signal: AbortSignal): Promise<boolean> {
  const ask = (path: string, method = 'GET'): Promise<Response> =>
    fetch(`${platformUrl}${path}`, {
      method,
      signal: AbortSignal.any([signal, AbortSignal.timeout(3000)]),
    });
  try {
    const response = await ask('/_sim/state');
    if (response.ok) {
      const state = (await response.json()) as { console?: unknown };
      return state.console === true;
    }
    await response.body?.cancel();
    // a simulator beyond loopback wants its control token for its state; the console's own
    // files need none (an older simulator's state does not say either)
    return (await ask('/_sim/console/', 'HEAD')).ok;
  } catch {
    return false;
  }
}
