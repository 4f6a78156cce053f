/**
 * The body of `chat` (imported lazily): an embedded agent-message endpoint (createListener),
 * the embedded simulator when no channel URL is given, and a readline loop that sends.
 */
import { clearLine, createInterface, cursorTo } from 'node:readline';
import { createClock, type Clock } from '../../clock.js';
import { EXIT_CODES, SvcError, errorText, exitCodeFor } from '../../errors.js';
import { formatIssue, type ContractIssue } from '../../contract/index.js';
import { createJournal } from '../../journal/index.js';
import { createPlatform, sendAgentMessage, type Platform } from '../../platform/index.js';
import {
  createListener,
  sendCustomerMessage,
  type CustomerPayload,
  type SenderFields,
} from '../../roles/integrator/index.js';
import { FILE_LINK_HINT, isNoFileLink, learnFileSize } from '../../http/file-size.js';
import { plural } from '../../plural.js';
import { buildPayload, captureAgentMessages } from './chat-io.js';
import { CHAT_HELP, parseChatLine, type ChatAction } from '../console/chat-console.js';
import type { CliContext } from '../context.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { chatOptions } from './chat-options.js';

type ChatOptions = Resolved<typeof chatOptions>;
import {
  formatChatAgent,
  formatChatReady,
  formatChatSent,
  type ChatAgentEvent,
  type ChatReadyEvent,
} from '../render/chat.js';
import { createOutput, type Output } from '../render/output.js';
import { redactChannelUrl } from './config-run.js';
import { compact } from '../../compact.js';
import { platformDeliveryWarning } from './chat-peer-check.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

interface Session {
  out: Output;
  options: ChatOptions;
  clock: Clock;
  channelUrl: string;
  sender: SenderFields;
  platform: Platform | undefined;
  signal: AbortSignal;
  /**
   * the exit code a session ends with when a message did not go through: 3 the platform
   * was unreachable, else 1 (the platform refused it); the worst wins. A line refused here
   * before sending (the contract check, a file size its server does not tell) is a usage
   * error shown at once and counts not: exit 1 means the platform refused one (docs).
   */
  failed?: number;
  /** how many lines did not go through */
  notSent?: number;
}

/** Notes a message that did not go through (see Session.failed). */
function noteFailure(session: Session, error: SvcError | undefined): void {
  const code = error ? exitCodeFor(error.category) : 1;
  const worst = code === EXIT_CODES.network ? code : 1;
  session.failed = Math.max(session.failed ?? 0, worst);
  session.notSent = (session.notSent ?? 0) + 1;
}

async function send(session: Session, payload: CustomerPayload): Promise<void> {
  try {
    const r = await sendCustomerMessage({
      channelUrl: session.channelUrl,
      payload,
      clock: session.clock,
      timeoutMs: session.options.timeout,
      signal: session.signal,
    });
    if (r.problem) noteFailure(session, r.problem);
    const notes = r.problem
      ? [r.problem.message, r.body.slice(0, 200)]
      : r.verdict.warnings.map((w) => `${w.path}: ${w.rule}`);
    session.out.event(
      {
        type: 'chat-sent',
        kind: r.kind,
        status: r.status,
        latencyMs: r.latencyMs,
        ok: !r.problem,
        notes,
      },
      formatChatSent,
    );
  } catch (error) {
    const e = error instanceof SvcError ? error : undefined;
    if (e?.code === 'SVC_E_INVALID_PAYLOAD') {
      // the issues themselves; chat sends valid messages only (send-text --force does not)
      const { issues = [] } = (e.details ?? {}) as { issues?: ContractIssue[] };
      session.out.note(
        [
          `${e.message} Not sent:`,
          ...issues.map((issue) => `  • ${formatIssue(issue)}`),
          'chat sends only messages the platform accepts; to send a broken one on purpose, use send-text or send-media with --force.',
        ].join('\n'),
      );
      return;
    }
    noteFailure(session, e);
    session.out.note(e ? `${e.message}${e.hint ? ` ${e.hint}` : ''}` : String(error));
  }
}

/**
 * A media line typed without a size gets the file's own (spec 2.4 file_size), asked of its
 * server; undefined (noted at once; not a platform refusal, so no exit code) when the server
 * does not tell it.
 */
async function withFileSize(
  session: Session,
  action: Extract<ChatAction, { kind: 'media' }>,
): Promise<ChatAction | undefined> {
  if (action.fileSize !== undefined) return action;
  let host: string | undefined;
  try {
    host = new URL(action.file).host;
  } catch {
    // not a URL: learnFileSize says so
  }
  if (host) session.out.note(`asking ${host} for the size of ${action.fileName}`);
  const learned = await learnFileSize({
    url: action.file,
    clock: session.clock,
    timeoutMs: session.options.timeout,
    signal: session.signal,
  });
  if (learned.ok) return { ...action, fileSize: learned.size };
  session.out.note(
    isNoFileLink(learned)
      ? `Not sent: "${action.file}" is ${learned.reason}. ${FILE_LINK_HINT}`
      : `Not sent: could not learn the size of ${action.file} (${learned.reason}). Give it: /${action.type === 'photo' ? 'photo' : `media ${action.type}`} <url> [name] <size in bytes>`,
  );
  return undefined;
}

/** Runs one parsed line; returns false when the session should end. */
async function perform(session: Session, given: ChatAction): Promise<boolean> {
  const { out } = session;
  const action = given.kind === 'media' ? await withFileSize(session, given) : given;
  if (action === undefined) return true;
  const payload = buildPayload(action, session.sender);
  if (payload) {
    await send(session, payload);
    return true;
  }
  switch (action.kind) {
    case 'sender':
      session.sender[action.field] = action.value;
      out.note(`${action.field} is now "${action.value}" (sent with the next message)`);
      return true;
    case 'agent':
      if (!session.platform) {
        out.note('/agent works with the embedded simulator only (no --channel-url)');
        return true;
      }
      await sendAgentMessage(session.platform.core, {
        customerId: session.sender.id,
        message: { type: 'text', text: action.text },
      }).catch((error: unknown) => out.note(errorText(error)));
      return true;
    case 'help':
      out.line(CHAT_HELP);
      return true;
    case 'error':
      out.note(action.message);
      return true;
    case 'quit':
      return false;
    case 'none':
    case 'text':
    case 'typing':
    case 'media':
    case 'location':
      return true; // sent above
    default: {
      const never: never = action;
      throw new Error(`unknown chat action ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The interactive customer console; resolves to 0 at /quit or end of input (3 or 1 when a
 * message did not go through) or 130 (Ctrl-C).
 * @example await runChat(ctx, { channelUrl: 'https://svc.example/r4nd0m/ch-1' });
 */
export async function runChat(ctx: CliContext, given: Record<string, unknown>): Promise<number> {
  const options = resolveForCommand(ctx, chatOptions, given);
  if (options.platformPort !== undefined && options.channelUrl !== undefined) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      '--platform-port sets the port of the embedded simulator, and with --channel-url none starts.',
      'Leave out --platform-port, or --channel-url to chat with an embedded simulator.',
    );
  }
  const out = createOutput(ctx, { json: options.json });
  const clock = createClock({ timeScale: options.timeScale });
  const terminal = Boolean(ctx.stdin.isTTY && ctx.stdout.isTTY) && !options.json;
  let rl: ReturnType<typeof createInterface> | undefined;
  /** Prints above the prompt without tearing what the user is typing. */
  const print = (emit: () => void): void => {
    if (rl && terminal) {
      clearLine(ctx.stdout, 0);
      cursorTo(ctx.stdout, 0);
    }
    emit();
    // stdout is written once per loop turn: the prompt follows what was printed, not precedes it
    if (rl && terminal) void out.flush().then(() => rl?.prompt(true));
  };
  const seen = new Set<string>();
  const journal = captureAgentMessages(createJournal({ keep: 100 }), (body) => {
    if (!isObject(body) || !isObject(body.message)) return;
    const id = typeof body.message.id === 'string' ? body.message.id : undefined;
    if (id !== undefined && seen.has(id)) return; // a redelivery (spec 8)
    if (id !== undefined) seen.add(id);
    const agent =
      isObject(body.sender) && typeof body.sender.name === 'string' ? body.sender.name : 'agent';
    const recipient = isObject(body.recipient) ? String(body.recipient.id) : '';
    const event: ChatAgentEvent = { type: 'chat-agent', agent, recipient, message: body.message };
    print(() => out.event(event, formatChatAgent));
  });
  const listener = await createListener({
    host: options.host,
    allowedHosts: options.allowedHost,
    port: options.port,
    clock,
    journal,
    onEvent: (e) => {
      if (e.type === 'request-rejected')
        print(() => out.note(`agent endpoint: ${e.method} ${e.path} -> ${e.status} ${e.message}`));
      if (e.type === 'listener-error') print(() => out.note(`agent endpoint error: ${e.message}`));
    },
  });
  let platform: Platform | undefined;
  let ready: ChatReadyEvent;
  if (options.channelUrl === undefined) {
    platform = createPlatform({ clock, channels: [{ integratorUrl: listener.url }] });
    const server = await platform.listen({ port: options.platformPort ?? 0 });
    const channel = [...platform.core.state.channels.values()][0];
    const info = channel ? platform.core.channelInfo(channel) : undefined;
    ready = {
      type: 'chat-ready',
      channelUrl: info?.url ?? '',
      integratorUrl: `${listener.url}/${channel?.id ?? ''}`,
      senderId: options.senderId,
      simulator: { url: server.url, controlUrl: `${server.url}/_sim` },
    };
  } else {
    ready = {
      type: 'chat-ready',
      channelUrl: options.showSecrets ? options.channelUrl : redactChannelUrl(options.channelUrl),
      integratorUrl: listener.url,
      senderId: options.senderId,
    };
  }
  out.event(ready, formatChatReady);
  const undelivered =
    options.channelUrl === undefined
      ? undefined
      : await platformDeliveryWarning(
          options.channelUrl,
          listener.url,
          clock,
          options.port === 0,
          options.showSecrets ? undefined : redactChannelUrl,
        );
  if (undelivered) out.note(`warning: ${undelivered}`);
  const session: Session = {
    out,
    options,
    clock,
    channelUrl: ready.simulator ? ready.channelUrl : (options.channelUrl ?? ''),
    sender: {
      id: options.senderId,
      ...compact({ name: options.name, phone: options.phone, email: options.email }),
    },
    platform,
    signal: ctx.signal,
  };
  const code = await readLines(ctx, session, terminal, (created) => (rl = created));
  await listener.close(200);
  await platform?.close();
  journal.close();
  return code;
}

/** The readline loop: lines run one after another; history is readline's (arrow keys). */
function readLines(
  ctx: CliContext,
  session: Session,
  terminal: boolean,
  expose: (rl: ReturnType<typeof createInterface>) => void,
): Promise<number> {
  const rl = createInterface({
    input: ctx.stdin,
    output: ctx.stdout,
    terminal,
    historySize: 500,
    prompt: 'you> ',
  });
  expose(rl);
  return new Promise((resolve) => {
    let chain = Promise.resolve();
    /** set by /quit, Ctrl-C or a signal: queued lines are dropped */
    let stopped: number | undefined;
    const finish = (exitCode: number): void =>
      void chain.then(() => {
        // a session that leaves with a failure says which (the exit code alone does not)
        if (exitCode === 0 && session.failed !== undefined)
          session.out.note(
            `${plural(session.notSent ?? 1, 'message')} did not go through (listed above): exit ${session.failed}`,
          );
        resolve(exitCode === 0 ? (session.failed ?? 0) : exitCode);
      });
    const stop = (exitCode: number): void => {
      if (stopped !== undefined) return;
      stopped = exitCode;
      rl.close();
    };
    rl.on('line', (line) => {
      chain = chain.then(async () => {
        if (stopped !== undefined) return;
        const more = await perform(session, parseChatLine(line));
        if (!more) stop(0);
        else if (terminal) {
          await session.out.flush(); // what the line printed comes before the next prompt
          rl.prompt();
        }
      });
    });
    // end of input (Ctrl-D, a pipe that ends): the queued lines still run, then exit 0, or
    // 3 or 1 when a message did not go through (a script piping lines can tell)
    rl.on('close', () => finish(stopped ?? 0));
    // Ctrl-C or a signal: what was typed stays on its line and the cursor goes under it (the
    // shell's prompt came after it, "you> halfrc=130"), then a line says why chat ended, as
    // platform and listen say it
    const interrupted = (): void => {
      if (stopped !== undefined) return;
      if (terminal) ctx.stdout.write('\n');
      else if (ctx.stdin.isTTY && ctx.stderr.isTTY) ctx.stderr.write('\n'); // --json: the echo
      const reason: unknown = ctx.signal.reason;
      session.out.note(`stopped (${reason instanceof Error ? reason.message : 'SIGINT'})`);
      stop(130);
    };
    // Ctrl-C on a terminal (raw mode: no process signal) is the SIGINT it stands for
    rl.on('SIGINT', () => (ctx.interrupt ? ctx.interrupt() : interrupted()));
    if (ctx.signal.aborted) interrupted();
    ctx.signal.addEventListener('abort', interrupted, { once: true });
    // the first prompt after the banner (stdout is written once per loop turn)
    if (terminal) void session.out.flush().then(() => stopped === undefined && rl.prompt());
  });
}
