import type { ChatView } from './api.js';

/** One simulator event as the console receives it from GET /_sim/events. */
export type SimEvent = { type: string; protocolMs?: number; chatId?: number } & Record<
  string,
  unknown
>;

export interface Attempt {
  attempt: number;
  attempts: number;
  offsetMs: number;
  outcome: 'accepted' | 'rejected';
  reason?: string;
  status?: number;
}

/** One agent message on its way: the attempts of spec 8 (t = 0, 3, 6 s) or the push to a page. */
export interface Delivery {
  deliveryId: string;
  chatId: number;
  text?: string;
  attempts: Attempt[];
  done?: { result: string; agentNotice?: string; elapsedMs: number };
  /** widget visitors: the pages the message was pushed to (0: queued for the next connect) */
  pushedTo?: number;
}

export interface ConsoleStore {
  chats: Map<number, ChatView>;
  selected: number | undefined;
  agentsOnline: boolean;
  connected: boolean;
  deliveries: Map<string, Delivery>;
  /** per chat: events other than the messages themselves (hooks, bot hand-overs, updates) */
  activity: Map<number, SimEvent[]>;
  typing: Map<number, boolean>;
  log: SimEvent[];
  /** the first channel's URL (GET /_sim/state): the empty chat list says where to write */
  channelUrl?: string | undefined;
  /** the demo page `svc-cli widget` serves beside this console: where a visitor starts a chat */
  pageUrl?: string | undefined;
}

const LOG_LIMIT = 500;
const QUIET = new Set(['customer-message', 'agent-message', 'delivery-attempt', 'delivery-done']);

export function createStore(): ConsoleStore {
  return {
    chats: new Map(),
    selected: undefined,
    agentsOnline: true,
    connected: false,
    deliveries: new Map(),
    activity: new Map(),
    typing: new Map(),
    log: [],
  };
}

/**
 * Folds one event into the store; returns the chat whose server state should be fetched
 * again (any event naming a chat), if any. Unknown event types are kept as they are.
 */
export function applyEvent(store: ConsoleStore, event: SimEvent): number | undefined {
  insertInTimeOrder(store.log, event);
  if (store.log.length > LOG_LIMIT) store.log.shift();
  const chatId = typeof event.chatId === 'number' ? event.chatId : undefined;
  const deliveryId = typeof event.deliveryId === 'string' ? event.deliveryId : undefined;
  switch (event.type) {
    case 'agents':
      store.agentsOnline = event.online === true;
      break;
    case 'agent-message':
    case 'bot-message': // the bot's answer goes to the customer with the same attempts
      if (chatId !== undefined && deliveryId && event.kind !== 'channel.agent.typing') {
        store.deliveries.set(deliveryId, {
          deliveryId,
          chatId,
          ...(typeof event.text === 'string' ? { text: event.text } : {}),
          attempts: [],
        });
      }
      break;
    case 'delivery-attempt': {
      const delivery = deliveryId ? store.deliveries.get(deliveryId) : undefined;
      delivery?.attempts.push(event as unknown as Attempt);
      return delivery?.chatId;
    }
    case 'delivery-done': {
      const delivery = deliveryId ? store.deliveries.get(deliveryId) : undefined;
      if (delivery) delivery.done = event as unknown as NonNullable<Delivery['done']>;
      return delivery?.chatId;
    }
    case 'widget-push': {
      const delivery = deliveryId ? store.deliveries.get(deliveryId) : undefined;
      if (delivery) delivery.pushedTo = Number(event.pages);
      break;
    }
    case 'customer-typing':
      if (chatId !== undefined) store.typing.set(chatId, event.typing === true);
      break;
    case 'customer-message':
      if (chatId !== undefined) store.typing.set(chatId, false);
      break;
    default:
      break;
  }
  if (chatId !== undefined && !QUIET.has(event.type)) {
    const list = store.activity.get(chatId) ?? [];
    insertInTimeOrder(list, event);
    store.activity.set(chatId, list);
  }
  return chatId;
}

/**
 * Adds `event` after the last one of `list` at or before its protocol time. The stream sends
 * what a moment caused before the moment itself (the chat_accepted hook is sent by the
 * decision the acceptance runs, and `chat-accepted` is told to observers after it), so in
 * arrival order the list read 11.603 s above 11.592 s. An event without a time goes last, as
 * it came; events almost always come in order, so the walk back is a step or none.
 */
export function insertInTimeOrder(list: SimEvent[], event: SimEvent): void {
  const at = event.protocolMs;
  let i = list.length;
  if (typeof at === 'number')
    while (i > 0) {
      const before = list[i - 1]?.protocolMs;
      if (typeof before !== 'number' || before <= at) break;
      i--;
    }
  list.splice(i, 0, event);
}

/** The agent messages of a chat, oldest first, for pairing with its agent lines. */
export function deliveriesOf(store: ConsoleStore, chatId: number): Delivery[] {
  return [...store.deliveries.values()].filter((d) => d.chatId === chatId);
}
