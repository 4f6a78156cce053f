import type { WidgetInboundEvent } from '../../contract/widget-protocol.js';
import type { PlatformCore } from '../core.js';
import type { Channel, Chat, Customer } from '../model.js';
import { clientIdOf } from '../model.js';

/** What the agent side knows about a widget visitor beyond the customer (kept in chat.ext.widget). */
export interface WidgetProfile {
  visitorId: string;
  visitorNumber: number;
  contactSource?: 'api' | 'form';
  rules?: Record<string, unknown>;
  invitation?: { text: string; departmentId?: number };
  /** pages listening now */
  pages: number;
}

export interface WidgetVisitor {
  readonly profile: WidgetProfile;
  readonly customerKey: string;
  readonly channelId: string;
  /** calls this visitor started: their status changes go back to the page */
  readonly callIds: Set<string>;
  /** inbound events in order; `live` once a listening page got it */
  readonly backlog: Array<{
    id: number;
    event: WidgetInboundEvent;
    live: boolean;
    /** the chat it was about, when it was about one */
    chatId?: number;
  }>;
  readonly pages: Set<WidgetPage>;
  nextId: number;
}

/** A listening page: each event with its stream id and the chat it is about, when it has them. */
export type WidgetPage = (event: WidgetInboundEvent, id?: number, chatId?: number) => void;

/** How many inbound events per visitor wait for a page that is not connected. */
export const BACKLOG_LIMIT = 200;

/**
 * The visitors of the widget channel: each one a customer of a `widget` channel (same chat
 * model as the custom channel), with the pages listening to its event stream.
 */
export function createVisitorHub(core: PlatformCore) {
  const visitors = new Map<string, WidgetVisitor>();
  const byCustomer = new Map<string, WidgetVisitor>();

  const customerOf = (visitor: WidgetVisitor): Customer => {
    const customer = core.state.customers.get(visitor.customerKey);
    if (!customer) throw new Error(`widget visitor ${visitor.profile.visitorId} lost its customer`);
    return customer;
  };

  /** The visitor's open chat, if any. */
  const openChatOf = (visitor: WidgetVisitor): Chat | undefined => {
    for (const chat of core.state.chats.values()) {
      if (chat.customerKey === visitor.customerKey && chat.mode !== 'closed') return chat;
    }
    return undefined;
  };

  /** Finds or registers a visitor: a new customer with the next visitor number (spec 4.5). */
  const ensure = (visitorId: string, channel: Channel): WidgetVisitor => {
    const known = visitors.get(visitorId);
    if (known) return known;
    const key = `${channel.id}/${visitorId}`;
    let customer = core.state.customers.get(key);
    if (!customer) {
      const number = core.state.nextVisitorNumber++;
      customer = {
        key,
        channelId: channel.id,
        senderId: visitorId,
        clientId: clientIdOf(core.state, number),
        visitorNumber: number,
      };
      core.state.customers.set(key, customer);
    }
    const visitor: WidgetVisitor = {
      profile: { visitorId, visitorNumber: customer.visitorNumber, pages: 0 },
      customerKey: key,
      channelId: channel.id,
      callIds: new Set(),
      backlog: [],
      pages: new Set(),
      nextId: 1,
    };
    visitors.set(visitorId, visitor);
    byCustomer.set(key, visitor);
    return visitor;
  };

  /** Hands an event to the visitor's pages; kept for a page that connects later. */
  const push = (
    visitor: WidgetVisitor,
    event: WidgetInboundEvent,
    meta: { chatId?: number; deliveryId?: string } = {},
  ): void => {
    // mutant widget-push-ids-rewind: the stream's numbering starts over at the accept, below
    // the pushes the page already had (spec 6.4: the callbacks then run against the ids)
    if (core.mutant === 'widget-push-ids-rewind' && event.type === 'agent_accepted')
      visitor.nextId = 1;
    const id = visitor.nextId++;
    const live = visitor.pages.size > 0;
    visitor.backlog.push({
      id,
      event,
      live,
      ...(meta.chatId === undefined ? {} : { chatId: meta.chatId }),
    });
    if (visitor.backlog.length > BACKLOG_LIMIT) visitor.backlog.shift();
    for (const page of visitor.pages) page(event, id, meta.chatId);
    core.emit({
      type: 'widget-push',
      visitorId: visitor.profile.visitorId,
      event: event.type,
      ...meta,
      pages: visitor.pages.size,
      protocolMs: core.clock.now(),
    });
  };

  /** Every listening page of every visitor (chat_mode); not kept in backlogs. */
  const broadcast = (event: WidgetInboundEvent): void => {
    for (const visitor of visitors.values()) for (const page of visitor.pages) page(event);
  };

  /**
   * A page starts listening. It gets what it missed: after `lastEventId` when reconnecting
   * (EventSource's Last-Event-ID), else what no page has seen yet, but for the events
   * `covered` says the page already has (its chat's transcript holds the agent's messages).
   */
  const connect = (
    visitor: WidgetVisitor,
    page: WidgetPage,
    lastEventId?: number,
    covered: (event: WidgetInboundEvent) => boolean = () => false,
  ): (() => void) => {
    for (const entry of visitor.backlog) {
      const missed = lastEventId === undefined ? !entry.live : entry.id > lastEventId;
      if (!missed) continue;
      entry.live = true;
      if (lastEventId === undefined && covered(entry.event)) continue;
      page(entry.event, entry.id, entry.chatId);
    }
    visitor.pages.add(page);
    visitor.profile.pages = visitor.pages.size;
    const announce = (connected: boolean): void =>
      core.emit({
        type: 'widget-visitor',
        visitorId: visitor.profile.visitorId,
        visitorNumber: visitor.profile.visitorNumber,
        connected,
        protocolMs: core.clock.now(),
      });
    announce(true);
    return () => {
      if (!visitor.pages.delete(page)) return;
      visitor.profile.pages = visitor.pages.size;
      announce(false);
    };
  };

  return {
    visitors,
    ensure,
    push,
    broadcast,
    connect,
    customerOf,
    openChatOf,
    byCustomerKey: (key: string) => byCustomer.get(key),
    /** the chat a pushed event (by its stream id) was about, while the backlog keeps it */
    chatOfPush: (visitor: WidgetVisitor, id: number): number | undefined =>
      visitor.backlog.find((entry) => entry.id === id)?.chatId,
  };
}

export type VisitorHub = ReturnType<typeof createVisitorHub>;
