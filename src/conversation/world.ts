import { dirname, resolve as resolvePath } from 'node:path';
import { coreOptionsOf, type SimulatorSettings } from './record/profile.js';
import { atLeastWallMs, createClock, createVirtualClock, type Clock } from '../clock.js';
import { SvcError } from '../errors.js';
import type { FaultPlan } from '../faults/index.js';
import type { Transport } from '../http/exchange.js';
import { postJson } from '../http/client.js';
import {
  createPlatform,
  sendAgentMessage,
  setAgentsOnline,
  closeChat,
  type AgentMessageInput,
  type PlatformCore,
  type PlatformEvent,
} from '../platform/index.js';
import { createListener, type Listener } from '../roles/integrator/index.js';
import { createHookTarget, type HookTarget } from '../roles/hooks/index.js';
import { createBotProvider, loadBotScript, type BotProvider } from '../roles/bot/index.js';
import type { ObservedExchange } from '../roles/inbound.js';
import { RECORDED_BOT_TAG, type Conversation } from './format.js';
import { tapOutgoing, type PeerParty } from './peer-tap.js';
import { createJournal, type ExchangeRecord, type RecordingStatus } from '../journal/journal.js';
import { compact } from '../compact.js';
import { botRedeliverer, type RedeliverOutcome } from './bot-redeliver.js';
import { runIds } from './run-ids.js';
import { attachPage, type Page } from './page.js';
import { setupForRealPeers } from './peer-setup.js';

/** Who saw a payload: a role facing the platform, or the simulator itself (its events). */
export type Party = 'integrator' | 'bot' | 'hook' | 'event' | 'page';
type RoleParty = Exclude<Party, 'event' | 'page'>;

export interface Observation {
  party: Party;
  value: unknown;
  consumed: boolean;
  /** protocol ms when it was seen (an expectation's `after` budget reads it) */
  at?: number;
  /**
   * protocol ms when the party was sent it, where that is earlier than `at`: a real peer's
   * sighting is seen once it has answered, so two requests sent in order can be seen the other
   * way round when the first takes longer to answer; `order` reads this
   */
  sentAt?: number;
}

/** Where each side lives: embedded (default) or a real peer by URL. */
export interface ReplayPeers {
  /** a real integrator endpoint instead of the embedded `listen` */
  integratorUrl?: string;
  /** a real bot provider instead of the embedded `bot-sim` */
  botUrl?: string;
  /** with `botUrl`: the token and provider id the real bot was given (over setup.bot's) */
  botToken?: string;
  botProviderId?: string;
  /** a real hook receiver instead of the embedded `hook-target` */
  hookUrl?: string;
  /** a running svc simulator (`svc-cli platform`) instead of the embedded platform */
  platformUrl?: string;
  /** the bearer token of the simulator at `platformUrl`, when it wants one (docs/SECURITY.md) */
  controlToken?: string;
  /**
   * with a real peer: the embedded platform's port (default any free one); a real bot is
   * configured with the platform URL it posts its answers to, so it must be known beforehand
   */
  platformPort?: number;
}

export interface WorldOptions extends ReplayPeers {
  conversation: Conversation;
  /** the fixture's path, for relative script paths */
  file?: string;
  /** where the fixture's relative script paths resolve, when `file` is no path to it */
  dir?: string;
  /** with real peers: protocol timers x timeScale on a real clock (default 1) */
  timeScale?: number;
  seed?: number;
  /**
   * how the embedded parties reach each other: in process (default without real peers: no
   * sockets) or over loopback sockets (always with a real peer, which needs them)
   */
  transport?: Transport;
  /**
   * append the platform's journal (every exchange of the conversation, NDJSON) to this file:
   * `replay --record`, read by `svc-cli trace`
   */
  recordFile?: string;
  /** the run id of its records in `recordFile` (default a new one) */
  journalRun?: string;
  /**
   * called once when a write to `recordFile` fails (a full disk, a quota, an I/O error): the
   * file was cut back to its last whole line and this conversation records no more into it
   */
  onRecordingStop?: (status: RecordingStatus) => void;
  /** what the embedded platform follows beyond the spec (`--profile`; default the spec's) */
  settings?: SimulatorSettings;
  /** a simulator mutant for the embedded platform (default SVC_MUTANT; src/platform/mutants.ts) */
  mutant?: string;
  /**
   * the embedded platform numbers chats from `runId * 1000 + 1` and clients from
   * `runId * 1000 + 501` (src/conversation/run-ids.ts); default from 1, as a fixture's literal ids say
   */
  runId?: number;
}

/** The delivery verdict of an agent message (spec 8), as agent steps match it. */
export interface AgentVerdict {
  result: string;
  attempts: number;
  elapsedMs: number;
  agentNotice?: string | undefined;
  deliveryId?: string;
  chatId?: number;
  /** why the last attempt of a failed series was not accepted, for the report only */
  reason?: string | undefined;
  /** what that attempt's reply said */
  said?: string | undefined;
}

/**
 * The world one conversation runs in: the platform (embedded or a running simulator) and
 * what each party saw. Steps drive it only through these methods.
 */
export interface World {
  readonly clock: Clock;
  readonly channelUrl: string;
  /** where control steps go (`/_sim/...`) */
  readonly controlBase: string;
  /** where `bot` steps post: the bot service's webhooks path (spec 4.3); none without a bot */
  readonly botEventsUrl?: string;
  readonly observations: Observation[];
  /** parts of the fixture's setup this world cannot apply, with the reason */
  readonly ignoredSetup?: string;
  /**
   * why the whole conversation does not apply here (a running simulator started without what
   * its setup needs): it is reported as skipped with this reason, not run
   */
  readonly notApplicable?: string;
  /**
   * real time: protocol-ms figures (`elapsedMs`) match within this many ms, as the report
   * says; absent on the virtual clock, where they match exactly
   */
  readonly timingToleranceMs?: number;
  /**
   * the real peers, one phrase each ("the hook receiver at <url>"): what they received is
   * read from the requests the simulator sent them, not from their side
   */
  readonly realPeers?: readonly string[];
  /**
   * What the platform recorded so far (its journal's recent records), for the invariants;
   * absent when the platform is not ours to read (a running simulator)
   */
  records?(): readonly ExchangeRecord[];
  /** Why expectations on this party cannot be checked here (skip: report as skipped). */
  unobservable(party: Party): { reason: string; skip: boolean } | undefined;
  /**
   * Why this conversation has no such party at all (no hook receiver without setup.hooks or
   * --hook-url, no bot without setup.bot or --bot-url): an expectation on it fails, since
   * "nothing came" proves nothing there, and `absent` would pass for no reason
   */
  missingParty?(party: Party): string | undefined;
  /** An agent writes; resolves with the verdict (undefined when not waited for). */
  sendAgent(input: {
    to?: string | undefined;
    message: { type: string } & Record<string, unknown>;
    wait: boolean;
  }): Promise<AgentVerdict | undefined>;
  setAgents(online: boolean): Promise<void>;
  /** The agent closes the customer's chat (default: the last active). */
  closeChat(customer?: string): Promise<{ chatId: number }>;
  /**
   * The site widget page of `page` steps (interface C), attached on first use; absent where
   * the widget channel is not reached (a running simulator)
   */
  page?: () => Promise<Page>;
  /** The platform sends the bot an event again (`redeliver`); absent without a bot here. */
  redeliverBot?: (id?: string) => Promise<RedeliverOutcome>;
  close(): Promise<void>;
}

function planOf(faults: Record<string, unknown> | undefined, seed?: number): FaultPlan {
  const plan = { ...(faults ?? {}) } as FaultPlan;
  if (seed !== undefined && plan.seed === undefined) plan.seed = seed;
  return plan;
}

/**
 * The embedded world: a platform and the roles facing it (listen, bot-sim, hook-target) in
 * this process, on a virtual clock unless a real peer is named.
 * @example const world = await createEmbeddedWorld({ conversation });
 */
export async function createEmbeddedWorld(options: WorldOptions): Promise<World> {
  // What has started so far: a setup that fails part way (a missing bot script) closes it.
  const started: Array<() => Promise<void>> = [];
  try {
    return await startEmbeddedWorld(options, started);
  } catch (error) {
    for (const close of started.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/** The embedded platform's hooks: the profile's docs events, when it has them. */
function hooksOf(url: string, settings: SimulatorSettings | undefined) {
  return { url, ...(settings?.hookEvents === 'docs' ? { events: 'docs' as const } : {}) };
}

/** Protocol ms a timing figure may be off by in real time (stated in the replay report). */
export const REAL_TIME_TOLERANCE_MS = 250;

type Setup = NonNullable<Conversation['setup']>;

/** The world's clock: virtual unless a real peer is named, which needs real time and sockets. */
function worldClock(options: WorldOptions): { real: boolean; transport: Transport; clock: Clock } {
  const real =
    options.integratorUrl !== undefined ||
    options.botUrl !== undefined ||
    options.hookUrl !== undefined;
  // a real peer reaches the platform (a bot posts back) and is reached over sockets
  const transport: Transport = real ? 'socket' : (options.transport ?? 'in-process');
  const clock: Clock = real
    ? createClock({ timeScale: options.timeScale ?? 1 })
    : createVirtualClock({ socketIo: transport === 'socket' });
  return { real, transport, clock };
}

/**
 * What each embedded role answered becomes an observation; `$attempt` and `$reply` ride
 * along so expectations can match the attempt number and the answer given.
 */
function roleObserver(observations: Observation[], clock: Clock) {
  return (party: RoleParty) =>
    ({ json, attempt, reply, status }: ObservedExchange): void => {
      observations.push({
        party,
        value: {
          ...(json as object),
          $attempt: attempt,
          $reply: reply,
          ...(status === undefined ? {} : { $status: status }),
        },
        consumed: false,
        at: clock.now(),
      });
    };
}

/** What the embedded roles start from: the clock, the transport, the fixture's setup. */
interface RoleContext {
  options: WorldOptions;
  setup: Setup;
  clock: Clock;
  transport: Transport;
  observe: ReturnType<typeof roleObserver>;
  started: Array<() => Promise<void>>;
}

/** The embedded roles this world started, and where the platform reaches each side. */
interface WorldRoles {
  listener: Listener | undefined;
  hookTarget: HookTarget | undefined;
  bot: BotProvider | undefined;
  integratorUrl: string;
  hookUrl: string | undefined;
  botUrl: string | undefined;
  token: string;
  providerId: string;
  /** the platform has a bot side: the embedded bot-sim or a real bot */
  withBot: boolean;
}

/** The embedded `listen`, unless a real integrator is named. */
async function startListener(
  ctx: RoleContext,
): Promise<{ listener?: Listener; integratorUrl: string }> {
  const { options, setup, clock, transport, observe, started } = ctx;
  if (options.integratorUrl !== undefined) return { integratorUrl: options.integratorUrl };
  const listener = await createListener({
    clock,
    observe: observe('integrator'),
    plan: planOf(setup.integrator?.faults, options.seed),
    transport,
  });
  started.push(() => listener.close(0));
  return { listener, integratorUrl: listener.url };
}

/** The embedded `hook-target`, when the fixture sets hooks up and no real receiver is named. */
async function startHookTarget(
  ctx: RoleContext,
): Promise<{ hookTarget?: HookTarget; hookUrl?: string }> {
  const { options, setup, clock, transport, observe, started } = ctx;
  if (options.hookUrl !== undefined) return { hookUrl: options.hookUrl };
  if (!setup.hooks) return {};
  const hookTarget = await createHookTarget({
    clock,
    observe: observe('hook'),
    plan: planOf(setup.hooks.faults, options.seed),
    ...(setup.hooks.replies ? { replies: setup.hooks.replies } : {}),
    transport,
  });
  started.push(() => hookTarget.close(0));
  return { hookTarget, hookUrl: `${hookTarget.url}/hooks` };
}

/** The embedded `bot-sim` (its script beside the fixture), when the fixture sets a bot up. */
async function startBotSim(
  ctx: RoleContext,
  token: string,
  providerId: string,
): Promise<{ bot?: BotProvider; botUrl?: string }> {
  const { options, setup, clock, transport, observe, started } = ctx;
  const botSetup = setup.bot;
  if (options.botUrl !== undefined) return { botUrl: options.botUrl };
  if (!botSetup) return {};
  // the script is named beside the fixture: a relative path is read from its folder
  const from = options.dir ?? (options.file ? dirname(options.file) : process.cwd());
  const script = botSetup.script
    ? await loadBotScript(resolvePath(from, botSetup.script), {
        given: botSetup.script,
        cwd: from,
      })
    : undefined;
  const bot = await createBotProvider({
    token,
    providerId,
    clock,
    observe: observe('bot'),
    plan: planOf(botSetup.faults, options.seed),
    ...(script ? { script } : {}),
    ...(botSetup.events ? { botEvents: botSetup.events } : {}),
    transport,
  });
  started.push(() => bot.close(0));
  return { bot, botUrl: bot.url };
}

/** Every embedded role the world needs, in order: listen, hook-target, bot-sim. */
async function startRoles(ctx: RoleContext): Promise<WorldRoles> {
  const { listener, integratorUrl } = await startListener(ctx);
  const { hookTarget, hookUrl } = await startHookTarget(ctx);
  const token = ctx.options.botToken ?? ctx.setup.bot?.token ?? 'conversation-token';
  const providerId =
    ctx.options.botProviderId ?? ctx.setup.bot?.providerId ?? 'conversation-provider';
  const { bot, botUrl } = await startBotSim(ctx, token, providerId);
  return {
    listener,
    hookTarget,
    bot,
    integratorUrl,
    hookUrl,
    botUrl,
    token,
    providerId,
    withBot: Boolean(botUrl && (ctx.setup.bot || ctx.options.botUrl)),
  };
}

/** The sides played by a real peer. */
function realPartiesOf(options: WorldOptions): Set<PeerParty> {
  return new Set<PeerParty>(
    (
      [
        ['integrator', options.integratorUrl],
        ['bot', options.botUrl],
        ['hook', options.hookUrl],
      ] as const
    )
      .filter(([, url]) => url !== undefined)
      .map(([party]) => party),
  );
}

/**
 * The platform's journal: `--record`'s file, and with real peers a tap. What a real peer
 * received is what the simulator sent it: its outgoing requests (and the answers it got)
 * become that party's observations, as an embedded role's would.
 */
function worldJournal(
  options: WorldOptions,
  realParties: Set<PeerParty>,
  observations: Observation[],
  clock: Clock,
) {
  const base = options.recordFile
    ? createJournal({
        file: options.recordFile,
        ...compact({ run: options.journalRun, onStop: options.onRecordingStop }),
      })
    : undefined;
  if (realParties.size === 0) return base;
  // on the real clock a real peer's sighting is placed by when it was sent; an embedded role's
  // is seen a little after it was sent (the in-process hop), so it gets its send time from the
  // same records, or `order` would weigh the one's send time against the other's arrival
  const everyParty = new Set<PeerParty>(['integrator', 'bot', 'hook']);
  return tapOutgoing(
    base ?? createJournal(),
    everyParty,
    ({ party, value, durationMs, sentAt }) => {
      const at = clock.now();
      const sent = sentAt ?? at - durationMs;
      if (realParties.has(party))
        observations.push({ party, value, consumed: false, at, sentAt: sent });
      else stampSent(observations, party, value, sent);
    },
  );
}

/** The payload itself: a sighting's value without the `$attempt`, `$reply` ... it carries. */
function bodyKey(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  return JSON.stringify(
    Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('$'))),
  );
}

/** Gives the embedded role's latest unstamped observation of this payload its send time. */
function stampSent(observations: Observation[], party: Party, value: unknown, sentAt: number) {
  const key = bodyKey(value);
  for (let i = observations.length - 1; i >= 0; i--) {
    const o = observations[i] as Observation;
    if (o.party !== party || o.sentAt !== undefined || bodyKey(o.value) !== key) continue;
    o.sentAt = sentAt;
    return;
  }
}

/** The embedded platform's options: its sides, the profile's settings and the fixture's setup. */
function platformOptionsOf(
  options: WorldOptions,
  setup: Setup,
  roles: WorldRoles,
  clock: Clock,
  journal: ReturnType<typeof worldJournal>,
): Parameters<typeof createPlatform>[0] {
  const { hookUrl, botUrl, token, providerId } = roles;
  return {
    clock,
    ...(journal ? { journal } : {}),
    ...(hookUrl ? { hooks: hooksOf(hookUrl, options.settings) } : {}),
    ...(botUrl && roles.withBot
      ? {
          bot: {
            providerUrl: botUrl,
            token,
            providerId,
            ...(setup.bot?.events
              ? { botEvents: setup.bot.events }
              : options.settings?.botEvents === 'docs'
                ? { botEvents: 'docs' as const }
                : {}),
            ...(options.settings ? { policy: options.settings.botPolicy } : {}),
          },
        }
      : {}),
    ...(options.settings ? coreOptionsOf(options.settings) : {}),
    agentsOnline: setup.agents !== 'offline',
    strict: setup.strict ?? true,
    ...(options.mutant === undefined ? {} : { mutant: options.mutant }),
    ...(options.runId === undefined ? {} : { ids: runIds(options.runId) }),
    channels: [
      {
        id: setup.channel?.id ?? 'conversation',
        integratorUrl: roles.integratorUrl,
        chunked: setup.channel?.chunked ?? false,
      },
    ],
  };
}

/**
 * Whether the fixture applies against the real peers named. A fixture that makes its peer
 * misbehave (redelivery, a slow or broken reply) tests the platform against that behaviour:
 * a real peer answers as it does, so the conversation does not apply, as with --platform-url.
 * A recorded fixture's faults are what the real peer did when it was recorded (a 500 on one
 * event): against that peer they are its own behaviour, expected again, not applied. Only
 * faults point at `--peer-failures drop`: recorded hook replies are no failure, and it keeps them.
 */
export function applicabilityOf(
  options: WorldOptions,
  setup: Setup,
): { notApplicable?: string; ignoredSetup?: string } {
  const recorded = options.conversation.tags?.includes('recorded') ?? false;
  const withFaults = setupForRealPeers(setup, options);
  const needsFaults = recorded ? undefined : withFaults[0];
  const notApplicable = needsFaults
    ? `its setup.${needsFaults.role}.${needsFaults.field} make the embedded ${needsFaults.role === 'hooks' ? 'hook-target' : needsFaults.role === 'bot' ? 'bot-sim' : 'listen'} misbehave; the real peer (--${needsFaults.role === 'hooks' ? 'hook' : needsFaults.role}-url) answers as it does`
    : options.conversation.tags?.includes(RECORDED_BOT_TAG) && options.botUrl === undefined
      ? 'its bot side was recorded from a real bot, which the embedded bot-sim does not play: replay it with --bot-url <that bot> --platform-port <the port it posts to>'
      : undefined;
  const ignoredSetup =
    recorded && withFaults.length > 0
      ? `${withFaults.map((w) => `setup.${w.role}.${w.field}`).join(', ')} not applied: they are what the real peer did when recorded, and its expectations check it does so again${withFaults.some((w) => w.role !== 'bot' && w.field === 'faults') ? ' (a peer fixed since: `record to-fixture --peer-failures drop`)' : ''}`
      : undefined;
  return compact({ notApplicable, ignoredSetup });
}

/**
 * The page of `page` steps, attached to the platform's widget channel on first use; its
 * callbacks become `page` observations.
 */
function pageOnce(
  core: PlatformCore,
  clock: Clock,
  conversation: Conversation,
  observations: Observation[],
): { open: () => Promise<Page>; close: () => void } {
  let attached: Promise<Page> | undefined;
  let page: Page | undefined;
  return {
    open() {
      attached ??= attachPage({
        baseUrl: core.baseUrl,
        clock,
        visitorId: conversation.setup?.page?.visitor ?? 'visitor-1',
        hold: conversation.setup?.page?.hold,
        onCallback: (name, args) =>
          observations.push({
            party: 'page',
            value: { name, args },
            consumed: false,
            at: clock.now(),
          }),
      }).then((opened) => (page = opened));
      return attached;
    },
    close: () => page?.close(),
  };
}

/** The real peers, one phrase each, as the report names them. */
function realPeersOf(options: WorldOptions): string[] {
  return [
    ...(options.integratorUrl ? [`the integrator at ${options.integratorUrl}`] : []),
    ...(options.botUrl ? [`the bot at ${options.botUrl}`] : []),
    ...(options.hookUrl ? [`the hook receiver at ${options.hookUrl}`] : []),
  ];
}

/** An agent writes on the embedded platform; the verdict when waited for (spec 8). */
async function sendAgentOn(
  core: PlatformCore,
  input: Parameters<World['sendAgent']>[0],
): Promise<AgentVerdict | undefined> {
  const sending = sendAgentMessage(core, {
    ...(input.to ? { customerId: input.to } : {}),
    message: input.message as AgentMessageInput,
  });
  if (!input.wait) {
    sending.catch(() => undefined);
    return undefined;
  }
  const result = await sending;
  return {
    result: result.result,
    attempts: result.attempts,
    elapsedMs: result.elapsedMs,
    agentNotice: result.agentNotice,
    deliveryId: result.deliveryId,
    chatId: result.chatId,
    reason: result.reason,
    said: result.said,
  };
}

async function startEmbeddedWorld(
  options: WorldOptions,
  started: Array<() => Promise<void>>,
): Promise<World> {
  const setup = options.conversation.setup ?? {};
  const { real, transport, clock } = worldClock(options);
  const observations: Observation[] = [];
  const observe = roleObserver(observations, clock);
  const roles = await startRoles({ options, setup, clock, transport, observe, started });
  const realParties = realPartiesOf(options);
  const journal = worldJournal(options, realParties, observations, clock);
  const platform = createPlatform(platformOptionsOf(options, setup, roles, clock, journal));
  platform.core.on((event: PlatformEvent) =>
    observations.push({ party: 'event', value: event, consumed: false, at: clock.now() }),
  );
  started.push(() => platform.close());
  if (transport === 'in-process') platform.mount();
  else await platform.listen({ port: options.platformPort ?? 0 });
  const { listener, hookTarget, bot, botUrl, token, providerId } = roles;
  bot?.setPlatformUrl(platform.core.baseUrl);
  const channel = [...platform.core.state.channels.values()][0];
  if (!channel) throw new SvcError('SVC_E_INTERNAL', 'the simulator has no channel');
  const core = platform.core;
  const page = pageOnce(core, clock, options.conversation, observations);
  return {
    ...applicabilityOf(options, setup),
    // a real peer puts the world on a real clock: timing figures match within a tolerance
    ...(real ? { timingToleranceMs: REAL_TIME_TOLERANCE_MS } : {}),
    clock,
    observations,
    channelUrl: core.channelInfo(channel).url,
    controlBase: core.baseUrl,
    ...(botUrl && roles.withBot
      ? {
          botEventsUrl: `${core.baseUrl}/webhooks/${encodeURIComponent(providerId)}/${encodeURIComponent(token)}`,
          redeliverBot: botRedeliverer({ journal: core.journal, clock, botUrl, token }),
        }
      : {}),
    ...(realParties.size > 0 ? { realPeers: realPeersOf(options) } : {}),
    // every party is observable here: an embedded role reports what it got, and a real peer's
    // requests are the simulator's own outgoing ones (the tap of worldJournal)
    unobservable: () => undefined,
    missingParty: (party) =>
      party === 'hook' && roles.hookUrl === undefined
        ? 'this conversation has no hook receiver: the platform sends hooks only with "setup": {"hooks": {}} in the fixture (or replay --hook-url)'
        : party === 'bot' && !roles.withBot
          ? 'this conversation has no bot: the platform talks to one only with "setup": {"bot": {}} in the fixture (or replay --bot-url)'
          : undefined,
    records: () => core.journal.entries(),
    page: page.open,
    sendAgent: (input) => sendAgentOn(core, input),
    setAgents: (online) => setAgents(core, clock, online),
    closeChat(customer) {
      const chat = closeChat(core, customer ? { customerId: customer } : {});
      return Promise.resolve({ chatId: chat.id });
    },
    async close() {
      page.close();
      await platform.close();
      // The steps are over: nothing still on a role's sockets (a hanging or trickling reply,
      // a spare keep-alive connection) can change the result, so no grace period.
      await Promise.all([listener?.close(0), hookTarget?.close(0), bot?.close(0)]);
    },
  };
}

/**
 * Agents come or go through the control API, as a user's `POST /_sim/agents` would: the journal
 * then shows when (the offline-message invariant reads it).
 */
async function setAgents(core: PlatformCore, clock: Clock, online: boolean): Promise<void> {
  const answer = await postJson({
    url: `${core.baseUrl}/_sim/agents`,
    body: JSON.stringify({ online }),
    timeoutMs: atLeastWallMs(10_000, clock),
    clock,
  });
  if (!answer.ok || answer.status !== 200) setAgentsOnline(core, online);
}
