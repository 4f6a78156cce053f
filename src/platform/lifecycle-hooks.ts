import { SvcError } from '../errors.js';
import type { PlatformEvent } from './events.js';
import type { Agent, Channel, Chat, ChatLine, Customer, PlatformState } from './model.js';

/**
 * The moments of a chat's life (and of a visitor's without one) the core announces, by the
 * event that announces them, and the lifecycle hook each one calls. Decisions (the bot takes
 * a chat, AGENT_JOINED goes out, chat_finished is sent) are made in these hooks, in the
 * order the services were `use()`d; the event is emitted after them, to observers.
 */
export const MOMENT_HOOKS = {
  'chat-opened': 'chatOpened',
  'customer-message': 'customerMessage',
  'chat-accepted': 'chatAccepted',
  'agent-message': 'agentMessage',
  'customer-updated': 'customerUpdated',
  'chat-assigned': 'chatAssigned',
  'chat-closed': 'chatClosed',
  'offline-message': 'offlineMessage',
  'call-status': 'callStatus',
  'widget-update': 'widgetUpdate',
} as const satisfies Partial<Record<PlatformEvent['type'], string>>;

export type MomentType = keyof typeof MOMENT_HOOKS;
/** An event that announces a moment: `core.moment()` runs the hooks, then emits it. */
export type MomentEvent = Extract<PlatformEvent, { type: MomentType }>;
/** Every other event: observed only, `core.emit()` sends it straight to the listeners. */
export type ObservedEvent = Exclude<PlatformEvent, MomentEvent>;
type Moment<T extends MomentType> = Extract<PlatformEvent, { type: T }>;

/**
 * What a service decides at each moment (hono's and undici's small typed hook interfaces):
 * each hook gets the event the core is about to emit and the chat it is about (the core
 * looks it up once). A chat moment's hooks run only when the chat exists.
 */
export interface LifecycleHooks {
  /** spec 3: a chat begins; a service that takes it sets its mode (the bot: `bot`) */
  chatOpened(event: Moment<'chat-opened'>, chat: Chat): void;
  /** spec 2.1, 3: the customer wrote (the line is in the chat log already) */
  customerMessage(event: Moment<'customer-message'>, chat: Chat): void;
  /** spec 3: an agent pressed Reply (the chat is the agent's already) */
  chatAccepted(event: Moment<'chat-accepted'>, chat: Chat): void;
  /** spec 2.2: an agent writes, before the message is delivered */
  agentMessage(event: Moment<'agent-message'>, chat: Chat): void;
  /** spec 3: visitor data changed */
  customerUpdated(event: Moment<'customer-updated'>, chat: Chat): void;
  /** spec 3, 6.2: the chat was linked to the CRM */
  chatAssigned(event: Moment<'chat-assigned'>, chat: Chat): void;
  /** spec 3: the chat closed (its mode is `closed` already) */
  chatClosed(event: Moment<'chat-closed'>, chat: Chat): void;
  /** spec 3: the offline form was sent; no chat */
  offlineMessage(event: Moment<'offline-message'>, chat: undefined): void;
  /** spec 3: a call began or its status changed; in a chat or not */
  callStatus(event: Moment<'call-status'>, chat: Chat | undefined): void;
  /** spec 4.5: a visitor's page changed its data; in a chat or not */
  widgetUpdate(event: Moment<'widget-update'>, chat: Chat | undefined): void;
}

export type LifecycleHookName = keyof LifecycleHooks;
type AnyHook = (event: MomentEvent, chat: Chat | undefined) => void;

/**
 * The moments that may come without a chat: their hooks run with none. The others are about
 * a chat, and their hooks are skipped when it is gone.
 */
const CHATLESS: ReadonlySet<MomentType> = new Set([
  'offline-message',
  'call-status',
  'widget-update',
]);

/**
 * The hooks of the services in use, per moment, in `use()` order: collected once per
 * `use()`, so announcing a moment on the ingest path is one lookup and a short loop.
 */
export function createLifecycle(state: PlatformState): {
  add(hooks: Partial<LifecycleHooks> | undefined): void;
  run(event: MomentEvent): void;
} {
  const byMoment = new Map<MomentType, AnyHook[]>();
  return {
    add(hooks) {
      if (!hooks) return;
      for (const [type, name] of Object.entries(MOMENT_HOOKS) as Array<
        [MomentType, LifecycleHookName]
      >) {
        const hook = hooks[name] as AnyHook | undefined;
        if (!hook) continue;
        const list = byMoment.get(type) ?? [];
        list.push(hook.bind(hooks));
        byMoment.set(type, list);
      }
    },
    run(event) {
      const hooks = byMoment.get(event.type);
      if (!hooks) return;
      const chatId = 'chatId' in event ? event.chatId : undefined;
      const chat = chatId === undefined ? undefined : state.chats.get(chatId);
      if (!chat && !CHATLESS.has(event.type)) return;
      for (const hook of hooks) hook(event, chat);
    },
  };
}

/** What an observer may read: the state, typed read-only (events observe; hooks decide). */
export interface ObserverView {
  readonly state: ReadonlyPlatformState;
}

export type ReadonlyChat = Readonly<Omit<Chat, 'agentIds' | 'lines' | 'ext'>> & {
  readonly agentIds: readonly number[];
  readonly lines: ReadonlyArray<Readonly<ChatLine>>;
  readonly ext: Readonly<Record<string, unknown>>;
};

export interface ReadonlyPlatformState {
  readonly channels: ReadonlyMap<string, Readonly<Channel>>;
  readonly agents: ReadonlyArray<Readonly<Agent>>;
  readonly agentsOnline: boolean;
  readonly customers: ReadonlyMap<string, Readonly<Customer>>;
  readonly chats: ReadonlyMap<number, ReadonlyChat>;
}

/** An observer of the core's events; the view is the state, read-only. */
export type PlatformListener = (event: PlatformEvent, view: ObserverView) => void;

/**
 * The chat state an observer must leave as it found it, as one string: per chat its mode,
 * agent, agents, line count and `ext` (the bot's and hooks' data); the agents' availability.
 * A structural snapshot, taken only when the core was asked to check observers.
 */
export function snapshotChats(state: PlatformState): string {
  const chats: unknown[] = [];
  for (const chat of state.chats.values()) {
    chats.push([chat.id, chat.mode, chat.agentId, chat.agentIds, chat.lines.length, chat.ext]);
  }
  return JSON.stringify([state.agentsOnline, state.chats.size, chats]);
}

/**
 * Wraps a listener so that a change of the chat state during its call is recorded as a
 * failure naming it (`checkObservers`): a listener that decides belongs in a lifecycle hook.
 */
export function checkedListener(
  state: PlatformState,
  listener: PlatformListener,
  name: string,
  failures: SvcError[],
): PlatformListener {
  return (event, view) => {
    const before = snapshotChats(state);
    listener(event, view);
    const after = snapshotChats(state);
    if (before === after) return;
    failures.push(
      new SvcError(
        'SVC_E_OBSERVER_CHANGED_STATE',
        `The listener ${name} changed the chat state while observing ${event.type}.`,
        'Listeners observe; make the decision in a lifecycle hook (PlatformService.lifecycle).',
      ),
    );
  };
}
