import { appendFileSync } from 'node:fs';
import type { Clock } from '../../clock.js';
import { SvcError, systemReason } from '../../errors.js';
import { HOOK_DELIVERY_POLICY } from '../../contract/timing.js';
import {
  createJournal,
  createRedactor,
  type ExchangeRecord,
  type Journal,
} from '../../journal/index.js';
import { createHookTarget, type HookTarget } from '../../roles/hooks/index.js';
import type { InvariantOptions } from '../../trace/invariants.js';
import type { SimulatorSettings } from '../../platform/profile.js';
import { assertReachable } from '../../http/reach.js';
import type { ConformCase } from './case.js';
import {
  asPlatformRecorded,
  checkObserved,
  ownAgentMessages,
  type InvariantsOutcome,
} from './observed.js';
import { startConformBot, type ConformBot } from './platform-bot.js';
import { REDELIVERY_TEXT } from './platform-redelivery.js';
import { buildPlatformSuite, parseChannelUrl } from './platform.js';
import { compact } from '../../compact.js';

/*
 * The cross-interface invariants on a conform run (src/trace/invariants.ts): what the run saw
 * of its conversations, as the platform would have recorded it, checked once the cases ran.
 * `conform platform` sees the customer messages it sent, the agent messages its embedded
 * listener was sent, with `hookListenPort` the hooks the platform sent its embedded
 * receiver, and with `botListenPort` the events it exchanged with its embedded bot
 * (platform-bot.ts). The rules are on the platform's conduct: in the other suites svc-cli is the
 * platform, its conduct scripted by the cases (conform bot sends AGENT_JOINED unasked), so
 * they have no peer to hold there.
 */

/** The invariants settings every suite takes (`--no-invariant`). */
export interface ConformInvariants {
  /** invariants not checked, by name */
  disabled?: readonly string[];
}

/** What a run saw, checked after the cases (and the cleanup) ran. */
export interface Observation {
  /** the invariants checked; `closed`: the chats the cleanup closed */
  finish(closed?: readonly number[]): Promise<InvariantsOutcome>;
  /**
   * a signal cut the run short: what it saw so far appended to the record file (whole NDJSON
   * lines; nothing when it saw nothing), without the waits and checks of `finish`
   */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface PlatformRunOptions {
  channelUrl: string;
  /** `--wait`: wall ms to wait for the platform to accept connections (default 0) */
  waitMs?: number;
  signal?: AbortSignal;
  integratorListenPort?: number;
  toleranceMs?: number;
  controlToken?: string;
  /** serve a hook receiver on this port (0: any) for the platform's hooks (spec 4.4) */
  hookListenPort?: number;
  /** the receiver is listening: point the platform's hooks at `url` */
  onHookReceiver?: (url: string) => void;
  /** serve a bot provider on this port (0: any) that hands each chat over (spec 3, 4.3) */
  botListenPort?: number;
  /** the embedded bot's token (spec 5.2; default `svc-conform-bot`) */
  botToken?: string;
  /** the embedded bot's provider id (spec 1.4; default `svc-conform`) */
  providerId?: string;
  /**
   * the platform's bot service, `{bot_service_url}` (spec 4.3), where the embedded bot posts
   * INVITE_AGENT (default: the channel URL's base, as an svc simulator serves it)
   */
  botApiUrl?: string;
  /** the bot is listening: attach it to the platform's channel with these */
  onBotProvider?: (bot: BotProviderInfo) => void;
  invariants?: ConformInvariants;
  /** a profile's settings (`--profile`): the redelivery schedule to expect */
  settings?: Pick<SimulatorSettings, 'channelPolicy' | 'profile'>;
  /**
   * append what the run saw, as the platform would have journaled it, to this NDJSON file
   * (`--record`: `svc-cli trace` and `report` read it)
   */
  recordFile?: string;
}

/** Where conform's bot listens and what the platform must post to it with. */
export interface BotProviderInfo {
  /** `{bot_provider_url}` (spec 4.3) */
  url: string;
  token: string;
  providerId: string;
  /** `{bot_service_url}` (spec 4.3): where the bot posts its events */
  apiUrl: string;
}

/** The embedded bot's token and provider id when none are given. */
export const CONFORM_BOT = { token: 'svc-conform-bot', providerId: 'svc-conform' } as const;

/** Protocol ms the redelivery case waits for the bot's hand-over (spec 8: the bot budget). */
const HANDOVER_WAIT_MS = 6000;

/** Protocol ms a late hook (one after chat_finished) is waited for once every chat finished. */
const LATE_HOOK_MS = 1000;

/**
 * Wall ms an interrupted run waits for the platform's chat list (its chat ids) before writing:
 * a platform answers in milliseconds, a busy machine's in more than one second (a stop under
 * load once drew no conversation at 1 s), a hung one never (Ctrl-C then takes 3 s).
 */
const FLUSH_CHATS_MS = 3000;

/**
 * The cases of `conform platform`, the cleanup, and the observation of the run.
 * @example const { cases, cleanup, observation } = await preparePlatform(options, clock);
 */
export async function preparePlatform(
  options: PlatformRunOptions,
  clock: Clock,
): Promise<{
  target: string;
  cases: ConformCase[];
  cleanup: () => Promise<number[]>;
  observation: Observation;
}> {
  const target = options.channelUrl;
  const { randomString, base } = parseChannelUrl(target);
  await assertReachable(target, 'the platform', { waitMs: options.waitMs, signal: options.signal });
  const botToken = options.botToken ?? CONFORM_BOT.token;
  // the channel URL's random string is a secret (spec 5.1): kept out of the --record file, and
  // so is all but its last character, which the "wrong random string" case changes; so is the
  // bot's token (spec 5.2), as given and as it stands in a path
  const redact = createRedactor([
    randomString,
    randomString.slice(0, -1),
    ...(options.botListenPort === undefined ? [] : [botToken, encodeURIComponent(botToken)]),
  ]);
  const journal = createJournal({ keep: 20_000, redact });
  let receiver: HookTarget | undefined;
  if (options.hookListenPort !== undefined) {
    receiver = await createHookTarget({
      port: options.hookListenPort,
      portFlag: '--hook-listen-port',
      clock,
      journal,
    });
    options.onHookReceiver?.(receiver.url);
  }
  const platformBase = options.botApiUrl?.replace(/\/+$/, '') ?? base;
  const bot = await startBot(options, { clock, journal, token: botToken, platformBase });
  const suite = buildPlatformSuite({
    channelUrl: options.channelUrl,
    clock,
    journal,
    ...(options.settings
      ? { policy: options.settings.channelPolicy, profile: options.settings.profile }
      : {}),
    ...compact({
      integratorListenPort: options.integratorListenPort,
      toleranceMs: options.toleranceMs,
      controlToken: options.controlToken,
      handedOver: bot ? (text: string) => bot.handedOver(text, HANDOVER_WAIT_MS) : undefined,
    }),
  });
  const seen = () => ownAgentMessages(journal.entries(), new Set([REDELIVERY_TEXT]));
  const observation: Observation = {
    async finish(closed = []) {
      if (receiver) await awaitFinished(journal, closed, clock);
      await bot?.idle();
      const records = asPlatformRecorded(seen(), await suite.chatsOfCustomers());
      if (options.recordFile !== undefined) writeRecords(options.recordFile, records);
      return checkObserved('platform', records, settingsOf(options), clock);
    },
    async flush() {
      const saw = seen();
      if (options.recordFile === undefined || saw.length === 0) return;
      // the chat ids group the exchanges into conversations: a hung platform gives none
      const chats = await within(FLUSH_CHATS_MS, suite.chatsOfCustomers(), new Map());
      writeRecords(options.recordFile, asPlatformRecorded(saw, chats));
    },
    async close() {
      await receiver?.close(100);
      await bot?.close();
      journal.close();
    },
  };
  return { target, cases: suite.cases, cleanup: suite.cleanup, observation };
}

/** With `botListenPort`: conform's bot, announced (platform-bot.ts). */
async function startBot(
  options: PlatformRunOptions,
  shared: { clock: Clock; journal: Journal; token: string; platformBase: string },
): Promise<ConformBot | undefined> {
  if (options.botListenPort === undefined) return undefined;
  const providerId = options.providerId ?? CONFORM_BOT.providerId;
  const bot = await startConformBot({ port: options.botListenPort, providerId, ...shared });
  const apiUrl = shared.platformBase;
  options.onBotProvider?.({ url: bot.url, token: shared.token, providerId, apiUrl });
  return bot;
}

/** `work`'s value, or `otherwise` after `wallMs` (the timer does not hold the process). */
function within<T>(wallMs: number, work: Promise<T>, otherwise: T): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(otherwise), wallMs);
    timer.unref();
    work.then(resolve, () => resolve(otherwise)).finally(() => clearTimeout(timer));
  });
}

/** Appends the records as NDJSON, one line each (the journal's own format). */
export function writeRecords(file: string, records: readonly ExchangeRecord[]): void {
  try {
    appendFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  } catch (error) {
    throw new SvcError('SVC_E_WRITE', `Could not write ${file}: ${systemReason(error)}.`);
  }
}

const settingsOf = (options: {
  invariants?: ConformInvariants;
  toleranceMs?: number;
}): InvariantOptions => ({
  ...(options.invariants?.disabled ? { disabled: options.invariants.disabled } : {}),
  ...(options.toleranceMs === undefined ? {} : { toleranceMs: options.toleranceMs }),
});

const finishedChat = (record: ExchangeRecord): number | undefined => {
  if (record.iface !== 'hook' || record.kind !== 'hook.chat_finished') return undefined;
  try {
    const id = (JSON.parse(record.request.body ?? '{}') as { chat_id?: unknown }).chat_id;
    return typeof id === 'number' ? id : typeof id === 'string' ? Number(id) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Waits until the receiver heard chat_finished for each chat the cleanup closed (at most the
 * hook budget, spec 8 as assumed), then a moment more for a hook that should not come.
 */
async function awaitFinished(
  journal: Journal,
  closed: readonly number[],
  clock: Clock,
): Promise<void> {
  const deadline = clock.now() + HOOK_DELIVERY_POLICY.attemptTimeoutMs;
  const missing = (): boolean => {
    const finished = new Set(journal.entries().map(finishedChat));
    return closed.some((chat) => !finished.has(chat));
  };
  while (missing() && clock.now() < deadline) await clock.sleep(50);
  await clock.sleep(LATE_HOOK_MS);
}
