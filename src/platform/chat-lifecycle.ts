/**
 * Bounded simulator memory: chats idle longer than a protocol-time limit are
 * closed, as the real platform closes idle chats; at a hard cap of chats in memory the oldest
 * closed chat leaves first (the least recently active open one is closed first when none is
 * closed). A chat that leaves takes its customer along once the customer has no chat left;
 * the journal keeps the record of every exchange.
 */
import type { Clock, Timer } from '../clock.js';
import type { Chat, PlatformState } from './model.js';

export interface ChatLimits {
  /**
   * protocol ms without a message from either side after which an open chat is closed
   * (fires chat_finished with hooks on); 0 or absent: chats never close on their own
   */
  idleTimeoutMs?: number;
  /** most chats kept in memory; absent: no cap */
  maxChats?: number;
}

/** Why the simulator (not an agent) closed a chat. */
export type AutoCloseReason = 'idle' | 'max-chats';

export interface ChatLifecycle {
  /** A chat was opened (call after it is in the state). */
  opened(chat: Chat): void;
  /** A message went either way in the chat: its idle time starts again. */
  touched(chat: Chat): void;
  /** The chat was closed (by an agent or by this module). */
  closed(chat: Chat): void;
  /** Stops the idle timer. */
  stop(): void;
}

export interface ChatLifecycleOptions {
  clock: Clock;
  state: PlatformState;
  limits: ChatLimits;
  /** customer key -> the id of the customer's latest chat (the core's index) */
  latestChatOf: Map<string, number>;
  /** closes an open chat the way an agent would, announcing why */
  close(chat: Chat, reason: AutoCloseReason): void;
}

/** An open chat in the activity list (least recently active first). */
interface ActivityNode {
  id: number;
  at: number;
  prev: ActivityNode | undefined;
  next: ActivityNode | undefined;
}

/**
 * Keeps two orders, both O(1) per message: open chats by last activity (a doubly linked list
 * indexed by chat id; a Map re-inserted on each touch would leave holes that every look at
 * its oldest entry scans) and closed chats by closing time (a queue). One timer on the clock,
 * armed for the oldest open chat only while some chat is open, so a virtual clock with no
 * open chat has nothing pending (`runUntil` ends as before).
 */
export function createChatLifecycle(options: ChatLifecycleOptions): ChatLifecycle {
  const { clock, state, limits, latestChatOf } = options;
  const idleMs = limits.idleTimeoutMs ?? 0;
  const maxChats = limits.maxChats ?? Number.POSITIVE_INFINITY;
  const nodes = new Map<number, ActivityNode>();
  let oldest: ActivityNode | undefined;
  let newest: ActivityNode | undefined;
  /** closed chat ids in closing order, from `closedHead` on; an evicted id is skipped */
  let closedQueue: number[] = [];
  let closedHead = 0;
  let timer: Timer | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;

  const unlink = (id: number): void => {
    const node = nodes.get(id);
    if (!node) return;
    nodes.delete(id);
    if (node.prev) node.prev.next = node.next;
    else oldest = node.next;
    if (node.next) node.next.prev = node.prev;
    else newest = node.prev;
  };
  const append = (id: number, at: number): void => {
    const node: ActivityNode = { id, at, prev: newest, next: undefined };
    if (newest) newest.next = node;
    else oldest = node;
    newest = node;
    nodes.set(id, node);
  };

  const arm = (): void => {
    if (idleMs <= 0 || stopped || !oldest) return;
    const at = oldest.at + idleMs;
    if (timer && timerAt <= at) return; // fires first; re-arms from there
    timer?.cancel();
    timerAt = at;
    timer = clock.setTimer(Math.max(0, at - clock.now()), sweep);
  };

  const sweep = (): void => {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const now = clock.now();
    while (oldest && now - oldest.at >= idleMs) {
      const chat = state.chats.get(oldest.id);
      unlink(oldest.id);
      if (chat && chat.mode !== 'closed') options.close(chat, 'idle');
    }
    arm();
  };

  /** Removes a chat from memory; its customer too when this was the customer's latest chat. */
  const evict = (id: number): void => {
    const chat = state.chats.get(id);
    unlink(id);
    if (!chat) return;
    state.chats.delete(id);
    if (latestChatOf.get(chat.customerKey) !== id) return;
    latestChatOf.delete(chat.customerKey);
    // a widget visitor is registered in the hub by its customer: it stays
    if (state.channels.get(chat.channelId)?.kind === 'widget') return;
    state.customers.delete(chat.customerKey);
  };

  /** The oldest closed chat still in memory, taken off the queue. */
  const takeOldestClosed = (): number | undefined => {
    while (closedHead < closedQueue.length) {
      const id = closedQueue[closedHead++] as number;
      if (closedHead > 1024 && closedHead * 2 > closedQueue.length) {
        closedQueue = closedQueue.slice(closedHead);
        closedHead = 0;
      }
      if (state.chats.get(id)?.mode === 'closed') return id;
    }
    return undefined;
  };

  /** Makes room for one more chat: the oldest closed chat leaves, else the least active open one. */
  const makeRoom = (): void => {
    while (state.chats.size > maxChats) {
      const closedId = takeOldestClosed();
      if (closedId !== undefined) {
        evict(closedId);
        continue;
      }
      if (!oldest) return;
      const id = oldest.id;
      const chat = state.chats.get(id);
      unlink(id);
      if (chat && chat.mode !== 'closed') options.close(chat, 'max-chats');
      evict(id);
    }
  };

  return {
    opened(chat) {
      append(chat.id, clock.now());
      makeRoom();
      arm();
    },
    touched(chat) {
      const node = nodes.get(chat.id);
      if (!node) return;
      node.at = clock.now();
      if (node === newest) return; // a chat that writes on: nothing moves, nothing allocated
      // to the end of the list, the same node
      if (node.prev) node.prev.next = node.next;
      else oldest = node.next;
      if (node.next) node.next.prev = node.prev;
      node.prev = newest;
      node.next = undefined;
      if (newest) newest.next = node;
      newest = node;
    },
    closed(chat) {
      unlink(chat.id);
      closedQueue.push(chat.id);
      // nothing left open: no timer pending (the next open chat arms one)
      if (!oldest && timer) {
        timer.cancel();
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
      }
    },
    stop() {
      stopped = true;
      timer?.cancel();
      timer = undefined;
    },
  };
}
