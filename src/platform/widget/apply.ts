import { randomUUID } from 'node:crypto';
import { SvcError } from '../../errors.js';
import type { WidgetOutboundEvent, WidgetTransportReply } from '../../contract/widget-protocol.js';
import type { PlatformCore } from '../core.js';
import { sendOfflineForm, updateVisitor, type VisitorUpdate } from '../hooks/actions.js';
import { startCall } from '../hooks/calls.js';
import type { Chat } from '../model.js';
import { appendChatLine } from '../model.js';
import type { WidgetUpdateEvent } from './events.js';
import type { VisitorHub, WidgetVisitor } from './hub.js';

/**
 * Applies one event from a visitor's page to the platform core (spec 4.5 methods, 6.4).
 * Visitor messages open or continue a chat like customer messages of the custom channel, so
 * agents, hooks and bots treat both alike.
 */
export function applyOutbound(
  core: PlatformCore,
  hub: VisitorHub,
  visitor: WidgetVisitor,
  event: WidgetOutboundEvent,
): WidgetTransportReply {
  const customer = hub.customerOf(visitor);
  const chat = hub.openChatOf(visitor);
  // spec 6.2 page: the hooks of this visitor's chats show the page it writes from
  if ('page' in event && event.page) customer.page = event.page;
  const update = (what: WidgetUpdateEvent['what'], data: unknown, at?: Chat): void =>
    core.moment({
      type: 'widget-update',
      visitorId: visitor.profile.visitorId,
      visitorNumber: visitor.profile.visitorNumber,
      ...(at ? { chatId: at.id } : {}),
      what,
      ...(event.type === 'contact_info' ? { source: event.source } : {}),
      data,
      protocolMs: core.clock.now(),
    });
  /** Changes visitor fields; with a chat, `customer-updated` follows (hook chat_updated, spec 3). */
  const changeVisitor = (fields: VisitorUpdate): void => {
    if (chat) updateVisitor(core, { chatId: chat.id }, fields);
    else Object.assign(customer, fields);
  };
  switch (event.type) {
    case 'visitor_number': // spec 4.5: sequential, visible in the agent application
      return { ok: true, visitorNumber: customer.visitorNumber };
    case 'visitor_message': {
      const { chat: current } = core.openChat(customer);
      current.ext.widget = visitor.profile;
      current.lastActivityMs = core.clock.now();
      core.touchChat(current);
      appendChatLine(current, {
        timestamp: core.clock.epochSeconds(),
        type: 'visitor',
        kind: 'channel.customer.text',
        text: event.text,
      });
      core.moment({
        type: 'customer-message',
        channelId: visitor.channelId,
        chatId: current.id,
        customerId: customer.senderId,
        kind: 'channel.customer.text',
        text: event.text,
        protocolMs: core.clock.now(),
      });
      return { ok: true };
    }
    case 'contact_info': // spec 4.5: shown to the agent as if typed by the visitor
      visitor.profile.contactSource = event.source;
      changeVisitor(event.contact);
      update('contact_info', event.contact, chat);
      return { ok: true };
    case 'custom_data': // spec 4.5: the agent panel updates live when a chat exists
      customer.customData = event.fields;
      if (chat) {
        core.moment({
          type: 'customer-updated',
          chatId: chat.id,
          customerId: customer.senderId,
          fields: ['customData'],
          protocolMs: core.clock.now(),
        });
      }
      update('custom_data', event.fields, chat);
      return { ok: true };
    case 'user_token': // spec 4.5, 5.5: not shown, passed in hook events
      changeVisitor({ userToken: event.token });
      update('user_token', event.token, chat);
      return { ok: true };
    case 'rules':
      visitor.profile.rules = event.rules;
      update('rules', event.rules, chat);
      return { ok: true };
    case 'invitation': // spec 2.1 sender.invite: invitation text as context for the agent
      customer.invite = event.text;
      visitor.profile.invitation = {
        text: event.text,
        ...(event.departmentId === undefined ? {} : { departmentId: event.departmentId }),
      };
      update('invitation', visitor.profile.invitation, chat);
      return { ok: true };
    case 'offline_message':
      return refusalOf(() => {
        // spec 3, 6.2: the offline form becomes hook offline_message
        sendOfflineForm(core, {
          ...event.message,
          channelId: visitor.channelId,
          ...(event.page ? { page: event.page } : {}),
          ...(customer.userToken === undefined ? {} : { userToken: customer.userToken }),
        });
      });
    case 'client_attributes': {
      // public JS API setClientAttributes: merged into the visitor's; hook client_attribute_updated
      customer.attributes = { ...customer.attributes, ...event.attributes };
      core.moment({
        type: 'widget-update',
        visitorId: visitor.profile.visitorId,
        visitorNumber: visitor.profile.visitorNumber,
        ...(chat ? { chatId: chat.id } : {}),
        what: 'client_attributes',
        customerKey: customer.key,
        data: event.attributes,
        protocolMs: core.clock.now(),
      });
      return { ok: true };
    }
    case 'start_call':
      return refusalOf(() => startVisitorCall(core, visitor, event.phone, chat));
    case 'callback':
      // the journal record of this request is the report (spec 6.4); nothing changes
      if (event.threw !== undefined) callbackThrew(core, visitor, event, chat);
      return { ok: true };
    default: {
      const never: never = event;
      return { ok: false, error: `unknown event ${JSON.stringify(never)}` };
    }
  }
}

/** A callback that threw is the page's bug, said where the user looks (the log, the console). */
function callbackThrew(
  core: PlatformCore,
  visitor: WidgetVisitor,
  event: Extract<WidgetOutboundEvent, { type: 'callback' }>,
  chat: Chat | undefined,
): void {
  core.emit({
    type: 'widget-callback-threw',
    visitorId: visitor.profile.visitorId,
    ...(chat ? { chatId: chat.id } : {}),
    name: event.name,
    event: event.event,
    error: event.threw ?? '',
    protocolMs: core.clock.now(),
  });
}

/** Runs a platform action; an input refusal (agents online, bad phone) becomes the reply. */
/**
 * spec 6.2 call_event; the status changes go back to the page as call_status, `start` too: the
 * page follows the call before startCall announces it.
 */
function startVisitorCall(
  core: PlatformCore,
  visitor: WidgetVisitor,
  phone: string,
  chat: Chat | undefined,
): void {
  const callId = randomUUID();
  visitor.callIds.add(callId);
  try {
    startCall(core, { phone, callId, ...(chat ? { chatId: chat.id } : {}) });
  } catch (error) {
    visitor.callIds.delete(callId); // refused: no call to follow
    throw error;
  }
}

function refusalOf(run: () => void): WidgetTransportReply {
  try {
    run();
    return { ok: true };
  } catch (error) {
    if (error instanceof SvcError && error.category === 'input') {
      return { ok: false, error: error.message };
    }
    throw error;
  }
}
