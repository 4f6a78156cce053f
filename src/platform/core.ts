import { EventEmitter, setMaxListeners } from 'node:events';
import { createClock, type Clock } from '../clock.js';
import { createJournal, type Journal } from '../journal/journal.js';
import type { ChannelInfo, PlatformEvent } from './events.js';
import {
  checkedListener,
  createLifecycle,
  type MomentEvent,
  type ObservedEvent,
  type ObserverView,
  type PlatformListener,
} from './lifecycle-hooks.js';
import { createRandomString } from './ids.js';
import {
  createState,
  DEFAULT_AGENTS,
  type Agent,
  type Channel,
  type Chat,
  type Customer,
  type IdSeed,
  type PlatformState,
} from './model.js';
import type { PlatformRequest, PlatformResponse, PlatformService, Route } from './types.js';
import { createChatLifecycle, type AutoCloseReason, type ChatLimits } from './chat-lifecycle.js';
import type { SvcError } from '../errors.js';
import type { FaultSwitch } from '../faults/plan.js';
import { createEventHistory, type EventHistory } from './event-history.js';
import { createServiceTable, type ServiceTable } from './service-table.js';
import { keepAbortListener } from '../io/on-abort.js';
import { responseHeaders, responseText, toPlatformRequest } from './fetch-adapter.js';
import {
  CHANNEL_DELIVERY_POLICY,
  type ChannelReplyReading,
  type DeliveryPolicy,
} from './delivery.js';
import type { PayloadForms } from './payload-forms.js';
import { mutateChannelPolicy, resolveMutant, type MutantName } from './mutants.js';
import {
  createOutboundLimiter,
  type OutboundLimiter,
  type OutboundLimits,
} from './outbound-limiter.js';

export interface ChannelConfig {
  /** public id (default: random) */
  id?: string;
  name?: string;
  /** default: 128 random bits */
  randomString?: string;
  integratorUrl?: string;
  chunked?: boolean;
  agentIds?: number[];
  kind?: Channel['kind'];
}

export interface PlatformCoreOptions {
  clock?: Clock;
  journal?: Journal;
  channels?: ChannelConfig[];
  agents?: Agent[];
  /** default true */
  agentsOnline?: boolean;
  /**
   * strict (default): a customer message that breaks the contract (empty sender.id ...) is
   * answered 400 with the issues; lenient: 200 like a forgiving platform, still not delivered.
   */
  strict?: boolean;
  /** the channel's redelivery policy (default spec 8: 3 attempts, 3 s apart) */
  channelPolicy?: DeliveryPolicy;
  /**
   * how an integrator's reply is read (default spec 2.2, 8: only a valid reply ends the series;
   * docs: by its status class, as the public Chat API page says)
   */
  channelReplies?: ChannelReplyReading;
  /** bounded concurrency of deliveries, bot events and hooks (default 256 in flight) */
  outbound?: OutboundLimits;
  /**
   * bounded memory: close chats idle this long, keep at most this many chats
   * (default: no idle close, no cap; `svc-cli platform` sets both)
   */
  chats?: ChatLimits;
  /**
   * keep the newest this many events, numbered, for GET /_sim/events?history=1 and an
   * EventSource that reconnects (`platform --web` keeps 1,000; default none)
   */
  eventHistory?: number;
  /** where chat and client ids start (default chat 1, client `501`) */
  ids?: IdSeed;
  /**
   * a simulator mutant to run (mutants.ts): a named deviation from the contract; default
   * `SVC_MUTANT` from the environment, so any harness that starts the simulator runs it
   */
  mutant?: string;
  /**
   * the payload forms a profile asks for (payload-forms.ts): ids as numbers or strings, time
   * fields in seconds or milliseconds, extra fields, the success status (default: the spec's)
   */
  forms?: PayloadForms;
  /**
   * check that event listeners only observe: the chats' state is compared before and after
   * every listener call, and a change is recorded in `observerFailures` naming the listener
   * (tests turn it on; off by default, and then costs nothing)
   */
  checkObservers?: boolean;
}

/**
 * The one platform core every interface extends. Holds the state, the clock, the journal
 * and the event stream; services (channel, bot, hooks, widget, control API) plug in.
 */
export interface PlatformCore {
  readonly clock: Clock;
  readonly journal: Journal;
  readonly state: PlatformState;
  readonly strict: boolean;
  readonly channelPolicy: DeliveryPolicy;
  /** how an integrator's reply is read: spec (default) or docs (by status class) */
  readonly channelReplies: ChannelReplyReading;
  /** the active simulator mutant, when a mutation run asked for one (mutants.ts) */
  readonly mutant: MutantName | undefined;
  /** the payload forms a profile asks for; the services send and answer in them */
  readonly forms: PayloadForms | undefined;
  /** the base URL once listening ('' before) */
  baseUrl: string;
  /** the chats kept open and in memory (`--max-chats`, `--chat-idle-timeout`), as given */
  readonly chatLimits: ChatLimits;
  /** aborted when the platform stops: in-flight deliveries end */
  readonly signal: AbortSignal;
  /**
   * aborted as the platform starts to stop, before the grace of `stop()`: an attempt under way
   * keeps the grace, but no series sends a redelivery after the stop (a user who pressed
   * Ctrl-C sees nothing more reach the peer)
   */
  readonly stopping: AbortSignal;
  /** every outbound request takes a slot here */
  readonly limiter: OutboundLimiter;
  /** the newest events, numbered, when `eventHistory` asked for them */
  readonly history: EventHistory | undefined;
  /**
   * the fault plan on the interfaces in force (src/platform/faults.ts): `createPlatform({
   * faults })` sets it, `PUT /_sim/faults` and `Platform.setFaults` replace it while serving
   */
  readonly faults: FaultSwitch;
  /**
   * Announces an event to every listener; a plain function, so it can be passed as is. A
   * moment of the chat lifecycle goes through `moment()` instead (its hooks decide first).
   */
  readonly emit: (event: ObservedEvent) => void;
  /**
   * A moment happened (lifecycle-hooks.ts): every service's lifecycle hook for it runs, in
   * `use()` order, and decides (the bot sends CLIENT_MESSAGE, AGENT_JOINED; hooks are sent);
   * then the event is emitted to the listeners, which only observe.
   */
  moment: (event: MomentEvent) => void;
  /**
   * Listens to every event with a read-only view of the state; `name` names the listener in
   * an `observerFailures` entry (default: the function's name).
   */
  on(listener: PlatformListener, name?: string): () => void;
  /** listeners that changed chat state, when `checkObservers` was asked for (else empty) */
  readonly observerFailures: readonly SvcError[];
  use(service: PlatformService): void;
  /** Every route of the services in use, as they declared them (tests walk the table). */
  routes(): readonly Route[];
  service<T extends PlatformService>(name: string): T | undefined;
  /**
   * The answer of the route that matches the request (router.ts: the most specific pattern),
   * 404 when none does, 405 with Allow when only the method differs; a `ProtocolError` thrown
   * by a handler becomes its status and error body (src/protocol-error.ts), an input error its
   * catalogue status (src/error-codes.ts); all of it answered in src/platform/service-table.ts.
   */
  handle(request: PlatformRequest): Promise<PlatformResponse> | PlatformResponse;
  /** Whether a route takes this method at this path (else `handle` answers 404 or 405). */
  serves(method: string, path: string): boolean;
  /**
   * A request to the core's routes alone, as hono's `app.request()`: in-process tests and
   * tools. Nothing is journaled and no body limit applies; `Platform.fetch` (index.ts) runs
   * the platform's whole request pipeline without a socket.
   * @example const res = await core.request('/_sim/state'); await res.json();
   */
  request(path: string, init?: RequestInit): Promise<Response>;
  addChannel(config: ChannelConfig): Channel;
  channelInfo(channel: Channel): ChannelInfo;
  /**
   * Finds or creates the open chat of a customer; `at` (protocol ms, default now) stamps it,
   * so a chat opened by a message is not later than that message in the log.
   */
  openChat(customer: Customer, at?: number): { chat: Chat; opened: boolean };
  /** A message went either way in the chat (its idle time starts again). */
  touchChat(chat: Chat): void;
  /**
   * Closes an open chat and announces it (`chat-closed`: hooks send chat_finished); `reason`
   * says why the simulator closed it when no agent did. Closing a closed chat does nothing.
   */
  finishChat(chat: Chat, reason?: AutoCloseReason): void;
  /** Tracks async work so stop() can wait for it. */
  track<T>(work: Promise<T>): Promise<T>;
  /**
   * Lets in-flight deliveries finish for up to `graceMs` (wall), then ends the rest: they are
   * journaled and announced as `interrupted`. The grace covers work started meanwhile too (a
   * bot's answer to a message under way): stop waits until nothing tracked is left, or the
   * grace is over. Flushes the journal.
   */
  stop(graceMs?: number): Promise<void>;
}

/** @example const core = createPlatformCore({ clock: createVirtualClock() }); */
export function createPlatformCore(options: PlatformCoreOptions = {}): PlatformCore {
  const clock = options.clock ?? createClock();
  const mutant = resolveMutant(options.mutant);
  const journal = options.journal ?? createJournal();
  const state = createState(
    options.agents ?? DEFAULT_AGENTS,
    options.agentsOnline ?? true,
    options.ids,
  );
  const events = createEventStream(state, options);
  const hooks = createLifecycle(state);
  const table = createServiceTable({
    hooks,
    forms: options.forms,
    clock,
    onRejected: (event) => events.emit(event),
  });
  const controller = new AbortController();
  const stopping = new AbortController();
  setMaxListeners(0, stopping.signal);
  // Deliveries wait on the platform's signal through src/io/on-abort.ts (one listener); other
  // listeners (services, tests) may be many.
  setMaxListeners(0, controller.signal);
  keepAbortListener(controller.signal); // it lives as long as the core: no churn per exchange
  const work = createWorkTracker();
  const moment = (event: MomentEvent): void => {
    hooks.run(event); // decide (spec 3's triggers), services in use() order
    events.emit(event); // then observe
  };
  const chats = createChatBook({ clock, state, limits: options.chats ?? {}, moment });

  const core: PlatformCore = {
    chatLimits: options.chats ?? {},
    history: events.history,
    faults: { injector: undefined },
    clock,
    journal,
    state,
    strict: options.strict ?? true,
    channelPolicy: mutateChannelPolicy(options.channelPolicy ?? CHANNEL_DELIVERY_POLICY, mutant),
    channelReplies: options.channelReplies ?? 'spec',
    mutant,
    forms: options.forms,
    baseUrl: '',
    signal: controller.signal,
    stopping: stopping.signal,
    limiter: createOutboundLimiter(options.outbound),
    emit: events.emit,
    moment,
    on: events.on,
    observerFailures: events.observerFailures,
    use: table.use,
    routes: table.routes,
    service: table.service,
    handle: table.handle,
    serves: table.serves,
    request: (path, init) => requestWithoutSocket(table, path, init),
    addChannel: (config) => addChannel(state, config),
    channelInfo: (channel) => channelInfoOf(core.baseUrl, channel),
    openChat: chats.openChat,
    touchChat: chats.touchChat,
    finishChat: chats.finishChat,
    track: (promise) => work.track(promise),
    async stop(graceMs = 0) {
      stopping.abort(PLATFORM_STOPPED);
      await work.settledWithin(graceMs);
      chats.stop();
      controller.abort(PLATFORM_STOPPED);
      await work.allSettled();
      for (const service of table.services) await service.close?.();
      journal.flush();
    },
  };
  for (const config of options.channels ?? [{}]) core.addChannel(config);
  return core;
}

/**
 * The event stream of a core: `emit` to every listener with the read-only view; `on` wraps a
 * listener in the observer check when asked for; the history numbers and keeps the newest.
 */
function createEventStream(
  state: PlatformState,
  options: Pick<PlatformCoreOptions, 'checkObservers' | 'eventHistory'>,
): Pick<PlatformCore, 'on' | 'observerFailures' | 'history'> & {
  /** to every listener: a moment's event too (`core.emit` takes only the others) */
  emit: (event: PlatformEvent) => void;
} {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const view: ObserverView = { state };
  const observerFailures: SvcError[] = [];
  return {
    history: options.eventHistory
      ? createEventHistory((listener) => {
          emitter.on('event', listener);
          return () => emitter.off('event', listener);
        }, options.eventHistory)
      : undefined,
    emit: (event) => {
      emitter.emit('event', event, view);
    },
    on(listener, name) {
      const called = options.checkObservers
        ? checkedListener(
            state,
            listener,
            name ?? (listener.name || 'a listener'),
            observerFailures,
          )
        : listener;
      emitter.on('event', called);
      return () => emitter.off('event', called);
    },
    observerFailures,
  };
}

/** `core.request`: a fetch-style request answered by `handle`, as hono's `app.request()`. */
async function requestWithoutSocket(
  table: Pick<ServiceTable, 'handle'>,
  path: string,
  init: RequestInit | undefined,
): Promise<Response> {
  const platformRequest = await toPlatformRequest(new Request(`http://svc.local${path}`, init), '');
  const answer = await table.handle(platformRequest);
  return new Response(answer.stream ? '' : responseText(answer), {
    status: answer.status,
    headers: responseHeaders(answer),
  });
}

/** A channel as the setup screen configures it (spec 1.3), with defaults for what is not given. */
export function addChannel(state: PlatformState, config: ChannelConfig): Channel {
  const id = config.id ?? createRandomString(6);
  const channel: Channel = {
    id,
    kind: config.kind ?? 'custom',
    name: config.name ?? `Channel ${id}`,
    randomString: config.randomString ?? createRandomString(),
    ...(config.integratorUrl ? { integratorUrl: config.integratorUrl.replace(/\/+$/, '') } : {}),
    chunked: config.chunked ?? false,
    agentIds: config.agentIds ?? state.agents.map((a) => a.id),
  };
  state.channels.set(id, channel);
  return channel;
}

/** spec 4.1: the channel URL `{base}/<random_string>/<public_id>` and its status URL. */
export function channelInfoOf(baseUrl: string, channel: Channel): ChannelInfo {
  const url = `${baseUrl}/${channel.randomString}/${channel.id}`;
  return {
    id: channel.id,
    name: channel.name,
    url,
    statusUrl: `${url}/status`,
    ...(channel.integratorUrl ? { integratorUrl: channel.integratorUrl } : {}),
    chunked: channel.chunked,
  };
}

interface ChatBookOptions {
  clock: Clock;
  state: PlatformState;
  limits: ChatLimits;
  /** where a chat's opening and closing are announced (the core's `moment`) */
  moment: (event: MomentEvent) => void;
}

/**
 * The chats' openings and closings: a customer's open chat found in O(1), a new one opened and
 * announced (its hooks decide first), closed once; idle chats and the cap on chats in memory
 * (chat-lifecycle.ts) close through the same `finishChat`.
 */
function createChatBook(
  options: ChatBookOptions,
): Pick<PlatformCore, 'openChat' | 'touchChat' | 'finishChat'> & { stop(): void } {
  const { clock, state, moment } = options;
  // customer key -> the id of their latest chat (O(1) lookups under load)
  const openChatOf = new Map<string, number>();
  const finishChat = (chat: Chat, reason?: AutoCloseReason): void => {
    if (chat.mode === 'closed') return;
    chat.mode = 'closed';
    moment({
      type: 'chat-closed',
      chatId: chat.id,
      ...(reason ? { reason } : {}),
      protocolMs: clock.now(),
    });
    lifecycle.closed(chat);
  };
  const lifecycle = createChatLifecycle({
    clock,
    state,
    limits: options.limits,
    latestChatOf: openChatOf,
    close: finishChat,
  });
  return {
    openChat(customer, at = clock.now()) {
      const openId = openChatOf.get(customer.key);
      const open = openId === undefined ? undefined : state.chats.get(openId);
      if (open && open.mode !== 'closed') return { chat: open, opened: false };
      const chat: Chat = {
        id: state.nextChatId++,
        channelId: customer.channelId,
        customerKey: customer.key,
        mode: 'queue',
        agentIds: [],
        lines: [],
        openedAt: at,
        lastActivityMs: at,
        ext: {},
      };
      state.chats.set(chat.id, chat);
      openChatOf.set(customer.key, chat.id);
      lifecycle.opened(chat);
      // the lifecycle decides (the bot takes the chat), then observers hear of it
      moment({
        type: 'chat-opened',
        chatId: chat.id,
        channelId: chat.channelId,
        customerId: customer.senderId,
        protocolMs: at,
      });
      return { chat, opened: true };
    },
    touchChat: (chat) => lifecycle.touched(chat),
    finishChat,
    stop: () => lifecycle.stop(),
  };
}

/**
 * Tracked work under way; `allSettled` wakes stop() when the last of it settles (a counter,
 * not a set with a callback per piece of work: tens of thousands queue under load).
 */
function createWorkTracker(): {
  track<T>(work: Promise<T>): Promise<T>;
  busy(): boolean;
  /** Resolves once no tracked work is under way (every caller of stop() alike). */
  allSettled(): Promise<void>;
  /** Resolves once no tracked work is under way, or after `graceMs` (wall) at the latest. */
  settledWithin(graceMs: number): Promise<void>;
} {
  let inFlight = 0;
  let drain: { promise: Promise<void>; resolve: () => void } | undefined;
  const settled = (): void => {
    inFlight--;
    if (inFlight > 0 || drain === undefined) return;
    drain.resolve();
    drain = undefined;
  };
  return {
    track(work) {
      inFlight++;
      // one shared reaction for both outcomes: a queued delivery holds as little as it can
      void work.then(settled, settled);
      return work;
    },
    busy: () => inFlight > 0,
    allSettled() {
      if (inFlight === 0) return Promise.resolve();
      if (drain === undefined) {
        let resolve = (): void => {};
        const promise = new Promise<void>((r) => (resolve = r));
        drain = { promise, resolve };
      }
      return drain.promise;
    },
    async settledWithin(graceMs) {
      if (graceMs <= 0 || inFlight === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.allSettled(),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    },
  };
}

/**
 * The reason every in-flight delivery of a stopping platform hears. One for the process: a new
 * Error per stop captured an async stack each time, a tenth of a replayed conversation's
 * close.
 */
const PLATFORM_STOPPED = new Error('platform stopped');
