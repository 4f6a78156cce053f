import type { Clock } from '../../clock.js';
import { createJournal, createRedactor, type ExchangeRecord } from '../../journal/journal.js';
import { createRouter } from '../../http/router.js';
import { createPlatform, type Platform, type PlatformCore } from '../../platform/index.js';
import type { DeliveryPolicy } from '../../contract/timing.js';
import type { PayloadForms } from '../../platform/payload-forms.js';
import { runIds } from '../run-ids.js';

/**
 * The embedded platform of `conform bot`: the bot service points at the provider under test
 * (spec 4.3), and everything the provider posts to `/webhooks/...` or `/providers/...` is
 * read back from the platform's journal, raw, so an invalid event can be judged too.
 */
export interface BotHarnessOptions {
  /** `{bot_provider_url}`: events go to `<url>/<token>` (spec 4.3) */
  url: string;
  token: string;
  providerId: string;
  clock: Clock;
  /** port of the embedded platform (default 0: any) */
  port?: number;
  host?: string;
  /** `docs`: the bot service also sends CHAT_CLOSED and takes CLIENT_INFO */
  botEvents?: 'spec' | 'docs';
  /** a profile's bot policy (attempts, their wait, the hand-over; default spec 8's) */
  policy?: DeliveryPolicy;
  /** a profile's payload forms: the events go to the bot in them */
  forms?: PayloadForms;
  /**
   * this run's ids start from it: chats `<run>001`, clients `<run>501` (ids are unique
   * in the account, spec 2.2, so a bot that keeps state sees a rerun's chats as new ones)
   */
  runId: number;
  /** quote the token in the journal (`--show-secrets`); default `***`, as given and in a path */
  showSecrets?: boolean;
}

/**
 * Records the embedded platform keeps for the suite's checks and `--record`: a fuzz run's
 * cases, about four exchanges each, fit (the journal's default keeps 1,000).
 */
const KEPT_RECORDS = 20_000;

/** Where the provider under test posts its events (spec 4.3); the token is shown as `<token>`. */
export interface BotServiceInfo {
  /** `{bot_service_url}` */
  url: string;
  webhookUrl: string;
  providersUrl: string;
  /** the run id the chat and client ids start from (`--run-id` repeats them) */
  runId: number;
  /** the first chat id of this run */
  firstChatId: number;
}

export interface BotHarness {
  readonly core: PlatformCore;
  readonly info: BotServiceInfo;
  /** the custom channel customers write on (the bot is attached to it) */
  readonly channelUrl: string;
  /** the journal's count now: later reads take what came after */
  mark(): number;
  /** Exchanges the platform sent to the provider (`out`) of one event, after `since`. */
  sent(event: string, since: number): ExchangeRecord[];
  /** Requests the provider sent to the bot service (`in`), after `since`. */
  received(since: number): ExchangeRecord[];
  /**
   * Why a bot may have sent nothing, when nothing at all reached the bot service yet: the
   * bot answers the platform's events but posts its own somewhere else (bot-sim without
   * `--platform-url`, a bot configured for another port). Undefined once anything arrived.
   */
  silence(): string | undefined;
  /** Waits (protocol ms) until `find` returns something, waking on every platform event. */
  waitFor<T>(find: () => T | undefined, withinMs: number): Promise<T | undefined>;
  close(): Promise<void>;
}

/** The bot service's paths (spec 4.3), as its routes have them. */
const BOT_PATHS = createRouter<true>();
BOT_PATHS.add(
  ['/webhooks/*', '/providers/*'].map((path) => ({ method: '*', path, handler: true })),
);

const isBotPath = (url: string): boolean =>
  BOT_PATHS.match('POST', new URL(url, 'http://x').pathname).kind === 'found';

/**
 * Starts the embedded platform with the bot service on 127.0.0.1.
 * @example const harness = await startBotHarness({ url, token, providerId: 'acme', clock });
 */
export async function startBotHarness(options: BotHarnessOptions): Promise<BotHarness> {
  const { clock, runId } = options;
  const ids = runIds(runId);
  const { firstChatId } = ids;
  // the bot's token is a secret (spec 5.2): kept out of --record, as given and in a path
  const secrets = options.showSecrets ? [] : [options.token, encodeURIComponent(options.token)];
  const platform: Platform = createPlatform({
    clock,
    ids,
    journal: createJournal({ keep: KEPT_RECORDS, redact: createRedactor(secrets) }),
    channels: [{ id: 'conform-bot' }],
    ...(options.forms ? { forms: options.forms } : {}),
    bot: {
      ...(options.policy ? { policy: options.policy } : {}),
      providerUrl: options.url,
      token: options.token,
      providerId: options.providerId,
      ...(options.botEvents ? { botEvents: options.botEvents } : {}),
    },
  });
  const server = await platform.listen({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    portFlag: '--platform-listen-port',
  });
  const core = platform.core;
  const channel = [...core.state.channels.values()][0];
  const id = encodeURIComponent(options.providerId);
  const entries = (since: number) => core.journal.entries(since);
  return {
    core,
    info: {
      url: server.url,
      webhookUrl: `${server.url}/webhooks/${id}/<token>`,
      providersUrl: `${server.url}/providers/${id}/<token>`,
      runId,
      firstChatId,
    },
    channelUrl: channel ? core.channelInfo(channel).url : '',
    mark: () => core.journal.count,
    sent: (event, since) =>
      entries(since).filter(
        (e) => e.iface === 'bot' && e.direction === 'out' && e.kind === `bot.event.${event}`,
      ),
    received: (since) =>
      entries(since).filter(
        (e) => e.iface === 'bot' && e.direction === 'in' && isBotPath(e.request.url),
      ),
    silence: () =>
      entries(0).some((e) => e.iface === 'bot' && e.direction === 'in' && isBotPath(e.request.url))
        ? undefined
        : `nothing at all reached the bot service at ${server.url} in this run: a bot posts its answers to ${server.url}/webhooks/${id}/<token> (bot-sim: --platform-url ${server.url}; --platform-listen-port fixes the port)`,
    async waitFor(find, withinMs) {
      const deadline = clock.now() + withinMs;
      for (;;) {
        const found = find();
        if (found !== undefined) return found;
        const left = deadline - clock.now();
        if (left <= 0) return undefined;
        const stop = new AbortController();
        await new Promise<void>((resolve) => {
          // the journal records a request just after its event: look again on the next turn
          const off = core.on(() => setImmediate(() => stop.abort()));
          stop.signal.addEventListener('abort', () => {
            off();
            resolve();
          });
          clock.sleep(left, stop.signal).then(
            () => stop.abort(),
            () => undefined,
          );
        });
      }
    },
    close: () => platform.close(),
  };
}
