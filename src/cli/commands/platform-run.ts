import { createInterface } from 'node:readline';
import type { CliContext } from '../context.js';
import { createClock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { createJournal, createRedactor } from '../../journal/journal.js';
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
import { CONSOLE_HELP, parseConsoleLine } from '../console/agent-console.js';
import { platformSchema, resolveOptions } from '../options.js';

/** `svc-cli platform`: flags -> simulator -> rendered events, until SIGINT/SIGTERM. */
export async function runPlatform(
  ctx: CliContext,
  given: Record<string, unknown>,
): Promise<number> {
  const flags = resolveOptions(platformSchema, {
    flags: given,
    env: ctx.env,
    cwd: ctx.cwd,
    command: 'platform',
  });
  const globals = flags;
  const out = createOutput(ctx, { json: flags.json });
  const { port, bodyLimit, integratorUrl } = flags;
  const clock = createClock({ timeScale: flags.timeScale });
  const platformSecrets: string[] = [];
  const redact = globals.showSecrets
    ? undefined
    : (text: string) => createRedactor(platformSecrets)(text);
  const journal = createJournal({
    ...(flags.record ? { file: flags.record } : {}),
    ...(redact ? { redact } : {}),
  });
  const platform = createPlatform({
    clock,
    journal,
    agentsOnline: flags.agents !== 'offline',
    strict: !flags.lenient,
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
  for (const channel of core.state.channels.values()) platformSecrets.push(channel.randomString);
  if (flags.host && isNonLoopbackHost(flags.host)) {
    out.note(`warning: binding ${flags.host} exposes the simulator beyond this machine`);
  }
  const progress = await createDeliveryProgress(ctx, {
    json: flags.json,
    intervalMs: () => core.channelPolicy.intervalMs,
    now: () => clock.now(),
  });
  const off = core.on((event) => {
    progress.around(() => out.event(event, formatPlatformEvent));
    progress.onEvent(event);
  });
  const server = await platform.listen({
    port,
    bodyLimit,
    ...(flags.host ? { host: flags.host } : {}),
  });
  const channels = [...core.state.channels.values()].map((c) => core.channelInfo(c));
  out.event(
    { type: 'listening', url: server.url, controlUrl: `${server.url}/_sim`, channels },
    () => undefined,
  );
  printBanner(out, server.url, channels, integratorUrl, Boolean(globals.showSecrets));

  const stopConsole =
    flags.console && !globals.json ? startConsole(ctx, core, out) : () => undefined;
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopConsole();
  off();
  progress.stop();
  await platform.close();
  out.note(
    `stopped; ${journal.count} exchanges${flags.record ? ` recorded in ${flags.record}` : ''}`,
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
  out.line(
    c.dim('Type a line to answer the last active customer; /help for commands; Ctrl-C stops.'),
  );
}

/** Reads agent actions from stdin; returns a function that stops reading. */
function startConsole(ctx: CliContext, core: PlatformCore, out: Output): () => void {
  const rl = createInterface({ input: ctx.stdin, terminal: false });
  rl.on('line', (line) => {
    const act = parseConsoleLine(line);
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
          sendAgentMessage(core, {
            ...(act.customerId ? { customerId: act.customerId } : {}),
            message: act.message as never,
          }).catch(fail);
          return;
        case 'agents':
          setAgentsOnline(core, act.online);
          return;
        case 'close':
          closeChat(core, act.customerId ? { customerId: act.customerId } : {});
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
  return () => rl.close();
}
