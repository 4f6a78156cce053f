import { createInterface } from 'node:readline';
import {
  controlAccessOf,
  createRecordJournal,
  recordPolicyOf,
  serverTls,
  watchRefusals,
} from '../serving-flags.js';
import { consoleUrlOf, printControlToken } from '../control-banner.js';
import type { CliContext } from '../context.js';
import { CONSOLE_EVENT_HISTORY, createConsoleService } from '../../web/console-service.js';
import { createDocsService } from '../../web/docs-service.js';
import { createClock } from '../../clock.js';
import { learnFileSize } from '../../http/file-size.js';
import { SvcError } from '../../errors.js';
import { createRedactor, type Redactor } from '../../journal/journal.js';
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
  parseConsoleLine,
} from '../console/agent-console.js';
import { runHookConsoleAction } from '../console/hook-console.js';
import { createPromptLine, type PromptLine } from '../console/prompt-line.js';
import { resolveForCommand } from '../options/resolve.js';
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

/** `svc-cli platform`: flags -> simulator -> rendered events, until SIGINT/SIGTERM. */
export async function runPlatform(
  ctx: CliContext,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, platformOptions, given);
  const globals = flags;
  const out = createOutput(ctx, { json: flags.json, quiet: flags.quiet });
  const { port, bodyLimit, integratorUrl, hookUrl } = flags;
  const hooks = hookUrl
    ? { url: hookUrl, timeoutMs: flags.hookTimeout, attempts: flags.hookAttempts }
    : undefined;
  const chats = chatLimitsOf(flags);
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
  const clock = createClock({ timeScale: flags.timeScale });
  const platformSecrets: string[] = [];
  // Built once the secrets are known (the channels exist before the first request).
  let redactor: Redactor | undefined;
  const redact = globals.showSecrets
    ? undefined
    : (text: string, where?: 'body') => (redactor ??= createRedactor(platformSecrets))(text, where);
  const journal = createRecordJournal(
    ctx,
    flags.record,
    {
      ...(recordMaxBytes === undefined ? {} : { maxBytes: recordMaxBytes }),
      ...(redact ? { redact } : {}),
      showSecrets: globals.showSecrets,
    },
    recordPolicyOf(flags, out),
  );
  const settings = settingsOf(await loadProfile(flags.profile, ctx.cwd));
  const bot = botOptions(flags, settings);
  if (bot) platformSecrets.push(bot.token, ...(bot.auth ? [bot.auth.clientSecret] : []));
  const platform = createPlatform({
    ...(bot ? { bot } : {}),
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
  // a job started with `&` must not read the terminal (it would be stopped); it
  // opens the console once `fg` gives it the terminal
  const background = Boolean(ctx.stdin.isTTY) && !isForegroundJob(ctx.stdin);
  const consoleOn = flags.console && !background;
  // On a terminal the console types on a prompt line that log lines and the countdown keep
  // intact (src/cli/console/prompt-line.ts); piped, it reads plain lines as before.
  const onTerminal =
    flags.console && !flags.json && Boolean(ctx.stdin.isTTY) && Boolean(ctx.stdout.isTTY);
  let promptLine: PromptLine | undefined;
  const progress = await createDeliveryProgress(ctx, {
    json: globals.json || flags.quiet, // no spinner either with --quiet
    intervalMs: () => core.channelPolicy.intervalMs,
    now: () => clock.now(),
    flush: () => out.flush(),
    ...(onTerminal && !flags.quiet ? { status: (text) => promptLine?.status(text) } : {}),
  });
  /** Prints without tearing the countdown or what the agent is typing. */
  const around = (print: () => void): void =>
    promptLine ? promptLine.around(print) : progress.around(print);
  const off = core.on((event) => {
    around(() => out.event(event, formatPlatformEvent));
    progress.onEvent(event);
  });
  boundHeapGrowth(); // a simulator runs for hours: its RSS stays near what is live
  const refusals = watchRefusals((line) => around(() => out.note(line)));
  const tls = await serverTls(ctx, flags, (line) => out.note(line));
  const server = await platform.listen({
    tls,
    port,
    bodyLimit,
    ...(flags.host ? { host: flags.host } : {}),
    allowedHosts: flags.allowedHost,
    access: control.access,
    ...(settings.keepAliveTimeoutMs === undefined
      ? {}
      : { limits: { keepAliveTimeoutMs: settings.keepAliveTimeoutMs } }),
  });
  const channels = [...core.state.channels.values()].map((c) => core.channelInfo(c));
  const consoleUrl = consoleUrlOf(server.url, control);
  out.event(
    {
      type: 'listening',
      url: server.url,
      controlUrl: `${server.url}/_sim`,
      ...(flags.web ? { consoleUrl } : {}),
      ...(control.generated ? { controlToken: control.token } : {}),
      channels,
      ...(bot ? { bot: botUrls(server.url, bot, globals.showSecrets) } : {}),
    },
    () => undefined,
  );
  printBanner(out, server.url, channels, integratorUrl, globals.showSecrets);
  if (clock.timeScale !== 1) {
    out.line(
      `  time scale    ${clock.timeScale}: ${describeTimeScale(clock.timeScale)} (the log shows both)`,
    );
  }
  if (flags.profile !== 'spec')
    out.line(`  profile       ${flags.profile}: ${describeSettings(settings)}`);
  if (bot) printBotBanner(out, server.url, bot, globals.showSecrets);
  if (bot && !integratorUrl) {
    // the bot's answers reach the customer through the channel's integrator
    out.note(
      'warning: no --integrator-url: the bot answers, but its messages reach no customer endpoint (start one with svc-cli listen --port 9000 and pass --integrator-url http://127.0.0.1:9000/agent-messages)',
    );
  }
  printControlToken(out, control);
  if (flags.web) out.line(`  web console   ${out.chalk.cyan(consoleUrl)}`);
  out.line(
    `  hooks         -> ${hookUrl ? out.chalk.cyan(hookUrl) : out.chalk.dim('off (set --hook-url)')}`,
  );
  if (flags.console && background) {
    out.note('agent console off: this is a background job (fg brings it to the foreground)');
  }
  let stopConsole = (): void => undefined;
  const openConsole = async (): Promise<void> => {
    out.line(
      out.chalk.dim(
        'Type a line to answer the last active customer; /help for commands; Ctrl-C stops.',
      ),
    );
    if (onTerminal) {
      await out.flush(); // the banner stands above the prompt line
      promptLine = createPromptLine(ctx, {
        prompt: 'agent> ',
        style: (text) => out.chalk.dim(text),
        flush: () => out.flush(),
      });
    }
    stopConsole = startConsole(ctx, core, out, around, promptLine);
  };
  let stopWaiting = (): void => undefined;
  if (consoleOn) await openConsole();
  else if (flags.console && background && onTerminal) {
    stopWaiting = whenForeground(ctx.stdin, () => {
      if (ctx.signal.aborted) return;
      out.note('agent console on: this job has the terminal now');
      void openConsole();
    });
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopWaiting();
  stopConsole();
  off();
  progress.stop();
  // what the stop cut short is said, not only journaled (newcomer pass)
  let interrupted = 0;
  const offInterrupted = core.on((event) => {
    if (event.type === 'delivery-done' && event.result === 'interrupted') interrupted++;
  });
  await platform.close(1000); // in-flight deliveries get 1 s, then are recorded interrupted
  offInterrupted();
  refusals.stop();
  const refused = refusals.summary();
  if (refused) out.note(refused);
  const recording = journal.recording;
  const recorded =
    recording.state === 'stopped'
      ? `; only ${recording.written} recorded in ${flags.record ?? ''} (the recording stopped: ${recording.failure?.reason ?? 'a write failed'}; exit code 5)`
      : flags.record
        ? ` recorded in ${flags.record}`
        : '';
  out.note(
    `stopped; ${journal.count} exchanges${recorded}${interrupted > 0 ? `; ${interrupted} delivery series cut short (journaled as interrupted)` : ''}`,
  );
  return 0;
}

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
    out.line(
      `  channel URL   ${c.cyan(channel.url)}${showSecrets ? '' : c.dim('  (secret: keep it private)')}`,
    );
    out.line(`  status URL    ${c.cyan(channel.statusUrl)}`);
  }
  out.line(
    `  agent messages -> ${integratorUrl ? c.cyan(`${integratorUrl}/${channels[0]?.id ?? ''}`) : c.yellow('nowhere (set --integrator-url)')}`,
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
  const address = createAddressee(consoleChatsOf(core));
  rl.on('line', (line) => {
    // the line typed stays above a fresh prompt, whatever the action prints
    if (promptLine) promptLine.around(() => undefined);
    const act = address(parseConsoleLine(line));
    const fail = (error: unknown): void =>
      out.note(
        error instanceof SvcError
          ? `${error.message}${error.hint ? ` ${error.hint}` : ''}`
          : String(error),
      );
    try {
      switch (act.kind) {
        case 'none':
          return;
        case 'help':
          out.line(CONSOLE_HELP);
          return;
        case 'error':
          out.note(act.message);
          return;
        case 'say':
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
          for (const chat of core.state.chats.values()) {
            const customer = core.state.customers.get(chat.customerKey);
            out.line(
              `  chat ${chat.id}  ${customer?.senderId ?? '?'}  ${chat.mode}  ${chat.lines.length} lines`,
            );
          }
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
  rl.on('close', () => stopping || out.note(CONSOLE_CLOSED));
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
