import { createInterface } from 'node:readline';
import {
  buildFaultPlan,
  controlAccessOf,
  faultsBannerText,
  createRecordJournal,
  recordPolicyOf,
  serverTls,
  watchRefusals,
} from '../serving-flags.js';
import { consoleUrlOf, printControlToken } from '../control-banner.js';
import type { CliContext } from '../context.js';
import { runIds } from '../../conversation/run-ids.js';
import { CONSOLE_EVENT_HISTORY, createConsoleService } from '../../web/console-service.js';
import { createDocsService } from '../../web/docs-service.js';
import { createClock, type Clock } from '../../clock.js';
import { FILE_LINK_HINT, isNoFileLink, learnFileSize } from '../../http/file-size.js';
import { SvcError } from '../../errors.js';
import { createRedactor, type Journal, type Redactor } from '../../journal/journal.js';
import {
  createPlatform,
  closeChat,
  sendAgentMessage,
  setAgentsOnline,
  type PlatformCore,
} from '../../platform/index.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { createOutput, type Output } from '../render/output.js';
import { formatPlatformEvent } from '../render/platform-events.js';
import { createDeliveryProgress } from '../render/progress.js';
import { boundHeapGrowth } from '../heap.js';
import { isForegroundJob, whenForeground } from '../terminal.js';
import {
  CONSOLE_HELP,
  consoleChatsOf,
  createAddressee,
  listConsoleChats,
  parseConsoleLine,
} from '../console/agent-console.js';
import { formatConsoleChats } from '../render/console-chats.js';
import { runHookConsoleAction } from '../console/hook-console.js';
import { createPromptLine, type PromptLine } from '../console/prompt-line.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { platformOptions } from './platform-options.js';
import { botOptions, botUrls, printBotBanner } from './platform-bot.js';
import {
  coreOptionsOf,
  describeSettings,
  loadProfile,
  settingsOf,
} from '../../conversation/record/profile.js';
import { chatLimitsOf, parseSize } from './platform-limits.js';
import { CONSOLE_CLOSED } from '../console/console-closed.js';
import { plural } from '../../plural.js';
import type { FaultPlan } from '../../faults/index.js';
import { integratorDeliveryUrl } from '../../contract/integrator-url.js';

type PlatformFlags = Resolved<typeof platformOptions>;
type Settings = ReturnType<typeof settingsOf>;
type Bot = ReturnType<typeof botOptions>;
type Control = ReturnType<typeof controlAccessOf>;
type Platform = ReturnType<typeof createPlatform>;

/** An unreserved URL character (RFC 3986): what a path segment holds as it is. */
const URL_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * spec 4.1: the channel URL is `{base}/<random_string>/<public_id>`: each is one path segment,
 * written into the URL as it is. A space or a slash in one makes a URL that reaches no channel.
 */
function checkChannelAddress(flags: PlatformFlags): void {
  const parts = [
    ['--channel-id', flags.channelId, 'shop-1'],
    ['--random-string', flags.randomString, 'dev-only-secret-1234'],
  ] as const;
  for (const [flag, value, example] of parts) {
    if (value === undefined || URL_SEGMENT.test(value)) continue;
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use ${flag} ${JSON.stringify(value)}: it is one segment of the channel URL (spec 4.1), made of letters, digits and - _ . ~ only.`,
      `Example: ${flag} ${example}`,
    );
  }
}

/** --record-max-size in bytes; it rotates an NDJSON --record file and nothing else. */
function recordMaxBytesOf(flags: PlatformFlags): number | undefined {
  const recordMaxBytes =
    flags.recordMaxSize === undefined
      ? undefined
      : parseSize(flags.recordMaxSize, '--record-max-size');
  if (recordMaxBytes !== undefined && (!flags.record || /\.har$/i.test(flags.record))) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --record-max-size: it rotates an NDJSON --record file${flags.record ? `, and ${flags.record} is HAR (written whole)` : ', and no --record is given'}.`,
      'Example: --record session.ndjson --record-max-size 100MB',
    );
  }
  return recordMaxBytes;
}

/**
 * The platform's journal, on --record when given. Unless --show-secrets it redacts the
 * secrets pushed to `secrets`, with a redactor built once they are known (the channels exist
 * before the first request).
 */
function platformJournal(
  ctx: CliContext,
  flags: PlatformFlags,
  out: Output,
  secrets: string[],
): Journal {
  const recordMaxBytes = recordMaxBytesOf(flags);
  let redactor: Redactor | undefined;
  const redact = flags.showSecrets
    ? undefined
    : (text: string, where?: 'body') => (redactor ??= createRedactor(secrets))(text, where);
  return createRecordJournal(
    ctx,
    flags.record,
    {
      ...(recordMaxBytes === undefined ? {} : { maxBytes: recordMaxBytes }),
      ...(redact ? { redact } : {}),
      showSecrets: flags.showSecrets,
    },
    recordPolicyOf(flags, out),
  );
}

/** The simulator the flags describe: its bot, hooks, channel, profile and web console. */
function buildPlatform(
  flags: PlatformFlags,
  settings: Settings,
  bot: Bot,
  parts: {
    clock: Clock;
    journal: Journal;
    chats: ReturnType<typeof chatLimitsOf>;
    faults: FaultPlan;
  },
): Platform {
  const { clock, journal, chats, faults } = parts;
  const { integratorUrl, hookUrl } = flags;
  const hooks = hookUrl
    ? { url: hookUrl, timeoutMs: flags.hookTimeout, attempts: flags.hookAttempts }
    : undefined;
  return createPlatform({
    ...(bot ? { bot } : {}),
    ...(flags.runId === undefined ? {} : { ids: runIds(flags.runId) }),
    faults,
    clock,
    journal,
    chats,
    ...coreOptionsOf(settings),
    agentsOnline: flags.agents !== 'offline',
    strict: !flags.lenient,
    ...(flags.mutant === undefined ? {} : { mutant: flags.mutant }),
    ...(flags.web
      ? {
          services: [createConsoleService(), createDocsService()],
          eventHistory: CONSOLE_EVENT_HISTORY,
        }
      : {}),
    ...(hooks ? { hooks: { ...hooks, events: settings.hookEvents } } : {}),
    channels: [
      {
        ...(flags.channelId ? { id: flags.channelId } : {}),
        ...(flags.channelName ? { name: flags.channelName } : {}),
        ...(flags.randomString ? { randomString: flags.randomString } : {}),
        ...(integratorUrl ? { integratorUrl } : {}),
        chunked: Boolean(flags.chunked),
      },
    ],
  });
}

/** Where the simulator's lines go: the prompt line of the console, else around the countdown. */
interface PlatformTerminal {
  progress: Awaited<ReturnType<typeof createDeliveryProgress>>;
  /** set once the console opens on a terminal */
  promptLine: PromptLine | undefined;
  /** prints without tearing the countdown or what the agent is typing */
  around: (print: () => void) => void;
  /** a job started with `&`: it must not read the terminal */
  background: boolean;
  /** the console types on a prompt line (a terminal both ways, not --json) */
  onTerminal: boolean;
}

/** The countdown and, on a terminal, the prompt line the console will type on. */
async function createPlatformTerminal(
  ctx: CliContext,
  flags: PlatformFlags,
  out: Output,
  core: PlatformCore,
  clock: Clock,
): Promise<PlatformTerminal> {
  // a job started with `&` must not read the terminal (it would be stopped); it
  // opens the console once `fg` gives it the terminal
  const background = Boolean(ctx.stdin.isTTY) && !isForegroundJob(ctx.stdin);
  // On a terminal the console types on a prompt line that log lines and the countdown keep
  // intact (src/cli/console/prompt-line.ts); piped, it reads plain lines as before.
  const onTerminal =
    flags.console && !flags.json && Boolean(ctx.stdin.isTTY) && Boolean(ctx.stdout.isTTY);
  const terminal: PlatformTerminal = {
    progress: await createDeliveryProgress(ctx, {
      json: flags.json || flags.quiet, // no spinner either with --quiet
      intervalMs: () => core.channelPolicy.intervalMs,
      now: () => clock.now(),
      flush: () => out.flush(),
      ...(onTerminal && !flags.quiet
        ? { status: (text) => terminal.promptLine?.status(text) }
        : {}),
    }),
    promptLine: undefined,
    around: (print) =>
      terminal.promptLine ? terminal.promptLine.around(print) : terminal.progress.around(print),
    background,
    onTerminal,
  };
  return terminal;
}

/** The socket: TLS, host and allowed hosts, the control guard, the profile's keep-alive. */
async function listenPlatform(
  ctx: CliContext,
  flags: PlatformFlags,
  out: Output,
  platform: Platform,
  settings: Settings,
  control: Control,
) {
  const tls = await serverTls(ctx, flags, (line) => out.note(line));
  return platform.listen({
    tls,
    port: flags.port,
    bodyLimit: flags.bodyLimit,
    ...(flags.host ? { host: flags.host } : {}),
    allowedHosts: flags.allowedHost,
    access: control.access,
    ...(settings.keepAliveTimeoutMs === undefined
      ? {}
      : { limits: { keepAliveTimeoutMs: settings.keepAliveTimeoutMs } }),
  });
}

/** What a started simulator says: the `listening` event, then the banner. */
function announceListening(
  out: Output,
  flags: PlatformFlags,
  started: {
    url: string;
    core: PlatformCore;
    clock: Clock;
    settings: Settings;
    bot: Bot;
    control: Control;
  },
): void {
  const { url, core, clock, settings, bot, control } = started;
  const { integratorUrl, hookUrl, showSecrets } = flags;
  const channels = [...core.state.channels.values()].map((c) => core.channelInfo(c));
  const consoleUrl = consoleUrlOf(url, control);
  // faulted on purpose: said before the first request meets them
  const plan = core.faults.injector?.plan;
  const faults = plan && faultsBannerText(plan);
  out.event(
    {
      type: 'listening',
      url,
      controlUrl: `${url}/_sim`,
      ...(flags.web ? { consoleUrl } : {}),
      ...(control.generated ? { controlToken: control.token } : {}),
      channels,
      ...(bot ? { bot: botUrls(url, bot, showSecrets) } : {}),
      ...(faults === undefined ? {} : { faults: { flags: faults } }),
    },
    () => undefined,
  );
  printBanner(out, url, channels, integratorUrl, showSecrets);
  const timeScale = clock.timeScale;
  if (timeScale !== 1) {
    out.line(`  time scale    ${timeScale}: ${describeTimeScale(timeScale)} (the log shows both)`);
  }
  if (flags.profile !== 'spec')
    out.line(`  profile       ${flags.profile}: ${describeSettings(settings)}`);
  if (bot) printBotBanner(out, url, bot, showSecrets);
  // a bot that keeps state by chat id (a public Python framework's JSONL tracker) met a
  // restarted simulator's chat 1 as its old one: "You have already greeted me." to a newcomer
  if (bot && flags.runId === undefined)
    out.line(
      out.chalk.dim(
        '  (chats count from 1; a bot that keeps state: --run-id <n> starts at <n>001)',
      ),
    );
  printControlToken(out, control);
  if (flags.web) {
    out.line(`  web console   ${out.chalk.cyan(consoleUrl)}`);
    // a web developer's own page takes the page-script double from here (docs/web.md)
    out.line(`  page script   ${out.chalk.cyan(`${url}/_sim/widget/svc-widget.js`)}`);
  }
  out.line(
    `  hooks         -> ${hookUrl ? out.chalk.cyan(hookUrl) : out.chalk.dim('off (set --hook-url)')}`,
  );
  if (faults)
    out.line(
      `  faults        ${out.chalk.yellow(faults)} ${out.chalk.dim('(channel, bot API, widget events; PUT /_sim/faults switches them)')}`,
    );
  // after the banner, not inside it: on a terminal stderr's line split its lines
  if (bot && !integratorUrl) {
    // the bot's answers reach the customer through the channel's integrator
    out.note(
      'warning: no --integrator-url: the bot answers, but its messages reach no customer endpoint (start one with svc-cli listen --port 9000 and pass --integrator-url http://127.0.0.1:9000/agent-messages)',
    );
  }
}

/**
 * The agent console: open now, or once `fg` gives a background job the terminal. Returns
 * what stops it (and the wait for the terminal).
 */
async function openAgentConsole(
  ctx: CliContext,
  flags: PlatformFlags,
  out: Output,
  core: PlatformCore,
  terminal: PlatformTerminal,
): Promise<() => void> {
  const { background, onTerminal } = terminal;
  if (flags.console && background) {
    out.note('agent console off: this is a background job (fg brings it to the foreground)');
  }
  let stopConsole = (): void => undefined;
  const openConsole = async (): Promise<void> => {
    // typing is offered on a terminal only: piped or ended stdin (a background job) has no
    // one typing, and its end is said by the console-closed note
    if (ctx.stdin.isTTY) out.line(out.chalk.dim(CONSOLE_BANNER));
    if (onTerminal) {
      await out.flush(); // the banner stands above the prompt line
      terminal.promptLine = createPromptLine(ctx, {
        prompt: 'agent> ',
        style: (text) => out.chalk.dim(text),
        flush: () => out.flush(),
      });
    }
    stopConsole = startConsole(ctx, core, out, terminal.around, terminal.promptLine);
  };
  let stopWaiting = (): void => undefined;
  if (flags.console && !background) await openConsole();
  else if (flags.console && background && onTerminal) {
    stopWaiting = whenForeground(ctx.stdin, () => {
      if (ctx.signal.aborted) return;
      out.note('agent console on: this job has the terminal now');
      void openConsole();
    });
  }
  return () => {
    stopWaiting();
    stopConsole();
  };
}

/** Until SIGINT/SIGTERM. */
function untilStopped(ctx: CliContext): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * The simulator closed: in-flight deliveries get 1 s, then are recorded interrupted. What the
 * stop cut short is said, not only journaled, with the exchanges and the recording's state.
 */
async function closePlatform(
  flags: PlatformFlags,
  out: Output,
  platform: Platform,
  journal: Journal,
  refusals: ReturnType<typeof watchRefusals>,
): Promise<void> {
  let interrupted = 0;
  const offInterrupted = platform.core.on((event) => {
    if (event.type === 'delivery-done' && event.result === 'interrupted') interrupted++;
  });
  await platform.close(1000); // in-flight deliveries get 1 s, then are recorded interrupted
  offInterrupted();
  refusals.stop();
  const refused = refusals.summary();
  if (refused) out.note(refused);
  const recording = journal.recording;
  // --quiet keeps warnings and errors: the count is info (GET /_sim/journal has it), but a
  // recording that stopped is why the exit code is 5
  if (flags.quiet && recording.state !== 'stopped') return;
  const recorded =
    recording.state === 'stopped'
      ? `; only ${recording.written} recorded in ${flags.record ?? ''} (the recording stopped: ${recording.failure?.reason ?? 'a write failed'}; exit code 5)`
      : flags.record
        ? ` recorded in ${flags.record}`
        : '';
  out.note(
    `stopped; ${plural(journal.count, 'exchange')}${recorded}${interrupted > 0 ? `; ${interrupted} delivery series cut short (journaled as interrupted)` : ''}`,
  );
}

/** `svc-cli platform`: flags -> simulator -> rendered events, until SIGINT/SIGTERM. */
export async function runPlatform(
  ctx: CliContext,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, platformOptions, given);
  const out = createOutput(ctx, { json: flags.json, quiet: flags.quiet });
  const chats = chatLimitsOf(flags);
  checkChannelAddress(flags);
  // before anything starts: a plan that cannot be used is an input error (exit 2)
  const faults = await buildFaultPlan(ctx, flags);
  const clock = createClock({ timeScale: flags.timeScale });
  const platformSecrets: string[] = [];
  const journal = platformJournal(ctx, flags, out, platformSecrets);
  const settings = settingsOf(await loadProfile(flags.profile, ctx.cwd));
  const bot = botOptions(flags, settings);
  if (bot) platformSecrets.push(bot.token, ...(bot.auth ? [bot.auth.clientSecret] : []));
  const platform = buildPlatform(flags, settings, bot, { clock, journal, chats, faults });
  const { core } = platform;
  if (core.mutant !== undefined)
    out.note(`mutant ${core.mutant}: this simulator deviates from the contract on purpose`);
  for (const channel of core.state.channels.values()) platformSecrets.push(channel.randomString);
  const control = controlAccessOf(flags);
  if (control.token !== undefined) platformSecrets.push(control.token);
  if (flags.host && isNonLoopbackHost(flags.host)) {
    out.note(
      `warning: binding ${flags.host} exposes the simulator beyond this machine; its control API and console want the control token${control.generated ? ' printed below' : ' --control-token gave'}`,
    );
  }
  const terminal = await createPlatformTerminal(ctx, flags, out, core, clock);
  const off = core.on((event) => {
    terminal.around(() => out.event(event, formatPlatformEvent));
    terminal.progress.onEvent(event);
  });
  boundHeapGrowth(); // a simulator runs for hours: its RSS stays near what is live
  const refusals = watchRefusals((line) => terminal.around(() => out.note(line)));
  const server = await listenPlatform(ctx, flags, out, platform, settings, control);
  announceListening(out, flags, { url: server.url, core, clock, settings, bot, control });
  const stopConsole = await openAgentConsole(ctx, flags, out, core, terminal);
  await untilStopped(ctx);
  stopConsole();
  off();
  terminal.progress.stop();
  await closePlatform(flags, out, platform, journal, refusals);
  return 0;
}

/** The agent console's first line on a terminal (fits 80 columns). */
export const CONSOLE_BANNER =
  'Type to answer the last active customer; /help for commands; Ctrl-C stops.';

function printBanner(
  out: Output,
  url: string,
  channels: ReturnType<PlatformCore['channelInfo']>[],
  integratorUrl: string | undefined,
  showSecrets: boolean,
): void {
  const c = out.chalk;
  out.line(`${c.bold('svc platform simulator')} listening on ${c.cyan(url)}`);
  for (const channel of channels) {
    out.line(`  channel URL   ${c.cyan(channel.url)}`);
    // on a line of its own: after a long URL it wrapped at 80 columns
    if (!showSecrets) out.line(c.dim('                (secret: keep it private)'));
    out.line(`  status URL    ${c.cyan(channel.statusUrl)}`);
  }
  out.line(
    `  agent messages -> ${integratorUrl ? c.cyan(integratorDeliveryUrl(integratorUrl, channels[0]?.id ?? '')) : c.yellow('nowhere (set --integrator-url)')}`,
  );
  out.line(`  control API   ${c.cyan(`${url}/_sim/state`)}`);
}

/**
 * An agent's file message typed without a size gets the file's own (file_size), asked of its
 * server; a server that does not tell it stops the message with a reason.
 */
async function withFileSize(
  core: PlatformCore,
  message: Record<string, unknown> & { type: string },
): Promise<Record<string, unknown>> {
  if (message.type === 'location' || message.file_size !== undefined) return message;
  const file = String(message.file);
  const learned = await learnFileSize({ url: file, clock: core.clock, timeoutMs: 10_000 });
  if (learned.ok) return { ...message, file_size: learned.size };
  if (isNoFileLink(learned))
    throw new SvcError(
      'SVC_E_AGENT_MESSAGE',
      `Not sent: "${file}" is ${learned.reason}.`,
      FILE_LINK_HINT,
    );
  throw new SvcError(
    'SVC_E_AGENT_MESSAGE',
    `Not sent: could not learn the size of ${file} (${learned.reason}).`,
    `Give it: /media ${message.type} <url> <file name> <size in bytes>`,
  );
}

/**
 * Reads agent actions from stdin; returns a function that stops reading. What it prints goes
 * through `around`, so a running spinner is cleared first and drawn again after.
 */
function startConsole(
  ctx: CliContext,
  core: PlatformCore,
  output: Output,
  around: (print: () => void) => void,
  promptLine: PromptLine | undefined,
): () => void {
  const rl = promptLine?.readline ?? createInterface({ input: ctx.stdin, terminal: false });
  // on a terminal readline has the keyboard in raw mode: Ctrl-C comes as its SIGINT, and
  // stops the simulator as the signal does
  if (promptLine) rl.on('SIGINT', () => ctx.interrupt?.());
  const out = {
    line: (text: string) => around(() => output.line(text)),
    note: (text: string) => around(() => output.note(text)),
  };
  // what a typed command answers is seen under --json too: human text on stderr, as the
  // console's errors are, and the list of chats as an NDJSON object on stdout
  const answer = (text: string) => (output.json ? out.note(text) : out.line(text));
  const address = createAddressee(consoleChatsOf(core));
  rl.on('line', (line) => {
    // the line typed stays above a fresh prompt, whatever the action prints
    if (promptLine) promptLine.around(() => undefined);
    const act = address(parseConsoleLine(line));
    // the hint on a line of its own: message and hint on one line broke at 80 columns
    const fail = (error: unknown): void =>
      out.note(
        error instanceof SvcError
          ? `${error.message}${error.hint ? `\n  ${error.hint}` : ''}`
          : String(error),
      );
    try {
      switch (act.kind) {
        case 'none':
          return;
        case 'help':
          answer(CONSOLE_HELP);
          return;
        case 'error':
          out.note(act.message);
          return;
        case 'say':
          if (act.hint !== undefined) out.note(act.hint);
          sendAgentMessage(core, {
            ...(act.customerId ? { customerId: act.customerId } : {}),
            message: { type: 'text', text: act.text },
          }).catch(fail);
          return;
        case 'typing':
          sendAgentMessage(core, {
            ...(act.customerId ? { customerId: act.customerId } : {}),
            message: { type: act.typing ? 'typein' : 'typeout' },
          }).catch(fail);
          return;
        case 'media':
          withFileSize(core, act.message)
            .then((message) =>
              sendAgentMessage(core, {
                ...(act.customerId ? { customerId: act.customerId } : {}),
                message: message as never,
              }),
            )
            .catch(fail);
          return;
        case 'agents':
          setAgentsOnline(core, act.online);
          return;
        case 'close':
          closeChat(core, act.customerId ? { customerId: act.customerId } : {});
          return;
        case 'assign':
        case 'call':
          runHookConsoleAction(core, act, out);
          return;
        case 'chats':
          around(() => output.event(listConsoleChats(core), formatConsoleChats));
          return;
        default: {
          const never: never = act;
          out.note(`unhandled ${JSON.stringify(never)}`);
        }
      }
    } catch (error) {
      fail(error);
    }
  });
  // Ctrl-D (end of input) ends the console, not the platform: say so, and how to stop it
  let stopping = false;
  // after what stdout still buffers (the banner): stdin that ends at once closes first
  rl.on('close', () => {
    if (!stopping) void output.flush().then(() => stopping || out.note(CONSOLE_CLOSED));
  });
  return () => ((stopping = true), promptLine ? promptLine.close() : rl.close());
}

/**
 * What --time-scale does to the protocol's timers, in words: a 3 s timer takes 3 x scale s of
 * the wall.
 * @example describeTimeScale(0.1) // 'protocol timers run 10x faster than the wall'
 * @example describeTimeScale(2) // 'protocol timers run 2x slower than the wall'
 */
export function describeTimeScale(scale: number): string {
  const factor = scale < 1 ? 1 / scale : scale;
  const shown = Number(factor.toFixed(2)); // 3.33, 2, 1.5
  return `protocol timers run ${shown}x ${scale < 1 ? 'faster' : 'slower'} than the wall`;
}
