/**
 * The public Webhooks page's events beyond the contract (`--profile docs`, hook service
 * `events: 'docs'`): client_updated and client_attribute_updated. Delivered like the spec's
 * events, with one difference: the page documents their answer loosely (`{"result":"ok"}` or
 * an error text), so any 2xx is taken and the answer is not held to a reply schema.
 */
import {
  buildClientAttributeUpdated,
  buildClientUpdated,
  type HookBase,
} from '../../hook-events/builders.js';
import type { WidgetUpdateEvent } from '../widget/events.js';
import type { PlatformCore } from '../core.js';
import { deliver, type DeliveryPolicy } from '../delivery.js';
import { createMessageId } from '../ids.js';
import type { Chat, Customer } from '../model.js';
import { shapeSent } from '../payload-forms.js';
import { compact } from '../../compact.js';

export interface DocsHookInput {
  url: string;
  policy: DeliveryPolicy;
  body: Record<string, unknown>;
  chatId?: number;
}

/** Announces a hook event about to be sent (`hook-sent`); returns its delivery id. */
export function announceHookSent(
  core: PlatformCore,
  input: { url: string; body: Record<string, unknown>; chatId?: number },
): string {
  const deliveryId = createMessageId();
  core.emit({
    type: 'hook-sent',
    deliveryId,
    event: String(input.body.event_name),
    ...(input.chatId === undefined ? {} : { chatId: input.chatId }),
    url: input.url,
    payload: input.body,
    protocolMs: core.clock.now(),
  });
  return deliveryId;
}

/** Sends one docs hook event; the series is tracked, its outcome announced as events. */
export function sendDocsHook(core: PlatformCore, input: DocsHookInput): void {
  const name = String(input.body.event_name);
  const chat = input.chatId === undefined ? {} : { chatId: input.chatId };
  const deliveryId = announceHookSent(core, input);
  const work = deliver({
    deliveryId,
    target: 'hook',
    url: input.url,
    body: shapeSent(core, `hook.${name}`, JSON.stringify(input.body)),
    policy: input.policy,
    clock: core.clock,
    judge: (reply) =>
      reply.status >= 200 && reply.status < 300
        ? { accepted: true }
        : { accepted: false, reason: `HTTP ${reply.status}` },
    emit: core.emit,
    journal: core.journal,
    kind: `hook.${name}`,
    ...chat,
    signal: core.signal,
    stopping: core.stopping,
    limiter: core.limiter,
  });
  core.track(work).catch(() => undefined); // stopped mid-delivery
}

/**
 * A hook's visitor fields the customer has (spec 6.2's visitor object): contacts, description
 * and, unless `withUserToken` is false, the page's user token (spec 5.5).
 */
export function visitorFieldsOf(customer: Customer, withUserToken = true) {
  return compact({
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    description: customer.description,
    userToken: withUserToken ? customer.userToken : undefined,
  });
}

/** The hook base of a visitor without a chat (attributes set before the first message). */
export function visitorBaseOf(customer: Customer, options: { widgetId?: string }): HookBase {
  return {
    widgetId: options.widgetId ?? customer.channelId,
    seed: customer.key,
    visitor: { number: customer.visitorNumber, ...visitorFieldsOf(customer) },
  };
}

export interface DocsHooks {
  /** Visitor data changed (the hook service's chat_updated trigger): client_updated. */
  clientUpdated(chat: Chat, customer: Customer): void;
  /** The page called setClientAttributes: client_attribute_updated. */
  attributesChanged(event: WidgetUpdateEvent): void;
}

/**
 * The docs events of a hook service, or undefined when it sends the spec's only.
 * @example const docs = docsHooksOf(core, { url, events: 'docs', policy, baseOf });
 */
export function docsHooksOf(
  core: PlatformCore,
  options: {
    url: string;
    events?: 'spec' | 'docs';
    widgetId?: string;
    policy: DeliveryPolicy;
    baseOf: (chat: Chat, customer: Customer) => HookBase;
  },
): DocsHooks | undefined {
  if (options.events !== 'docs') return undefined;
  const send = (body: Record<string, unknown>, chatId?: number): void =>
    sendDocsHook(core, {
      url: options.url,
      policy: options.policy,
      body,
      ...(chatId === undefined ? {} : { chatId }),
    });
  return {
    clientUpdated(chat, customer) {
      send(buildClientUpdated(options.baseOf(chat, customer), customer.clientId), chat.id);
    },
    attributesChanged(event) {
      if (event.what !== 'client_attributes' || event.customerKey === undefined) return;
      const customer = core.state.customers.get(event.customerKey);
      if (!customer) return;
      const chat = event.chatId === undefined ? undefined : core.state.chats.get(event.chatId);
      const base = chat ? options.baseOf(chat, customer) : visitorBaseOf(customer, options);
      const attributes = event.data as Record<string, unknown>;
      send(buildClientAttributeUpdated(base, customer.clientId, attributes), chat?.id);
    },
  };
}
