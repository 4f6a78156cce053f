import { randomInt } from 'node:crypto';
import type { HookEventName as ContractHookEventName } from '../../contract/hooks.js';
import {
  buildCallEvent,
  buildClientAttributeUpdated,
  buildClientUpdated,
  buildChatAccepted,
  buildChatAssigned,
  buildChatFinished,
  buildChatUpdated,
  buildOfflineMessage,
  type DocsHookEventName,
  type HookAgent,
  type HookBase,
  type HookEventName,
} from '../../hook-events/builders.js';

/**
 * Realistic synthetic hook events for `hook-fire`, built with the platform's own builders
 * (one set of builders), and the default replies of `hook-target`.
 */

/** Every hook event in the order a chat lives through them (spec 3). */
export const HOOK_LIFECYCLE: readonly HookEventName[] = [
  'chat_accepted',
  'chat_updated',
  'chat_assigned',
  'chat_finished',
  'call_event',
  'offline_message',
];

/** The CRM link of the default chat_accepted reply and of a sample chat_assigned. */
export const SAMPLE_CRM_LINK = 'https://crm.example.com/contacts/4711';

const SAMPLE_AGENT: HookAgent = { id: 1, name: 'Alice Agent', email: 'alice@example.com' };
/** The chat of a sample built without a chat id (the payload fixtures' chat). */
export const SAMPLE_CHAT_ID = 1042;

const SAMPLE_BASE: HookBase = {
  widgetId: 'wdg-3f9a2c',
  seed: 'sample-visitor',
  chatId: SAMPLE_CHAT_ID,
  visitor: {
    number: 17,
    name: 'Jane Visitor',
    email: 'jane@example.com',
    phone: '+49 30 1234567',
    description: 'Asked about returns',
    chatsCount: 3,
  },
};
/** visitor 17's client id as the simulator numbers clients by default: digits in a string */
const SAMPLE_CLIENT_ID = '517';

/**
 * The public Webhooks page's client events (docs profile) with the sample visitor: what
 * `conform hooks --profile docs` sends beside the spec's events.
 * @example buildSampleDocsHookEvent('client_updated').client_id // '517'
 */
export function buildSampleDocsHookEvent(name: DocsHookEventName): Record<string, unknown> {
  return name === 'client_updated'
    ? buildClientUpdated(SAMPLE_BASE, SAMPLE_CLIENT_ID)
    : buildClientAttributeUpdated(SAMPLE_BASE, SAMPLE_CLIENT_ID, { plan: 'pro', seats: 3 });
}

export interface SampleOptions {
  /** spec 6.2 note: the field table's spelling of the offline event */
  offlineName?: 'offline_message' | 'offline_messages';
  /** assign_to of chat_assigned (default the sample CRM link) */
  assignTo?: string;
  /** unix seconds of the chat log's first line (default now - 300) */
  now?: number;
  /** the chat the event is about (default the sample chat 1042); offline_message has none */
  chatId?: number;
}

/**
 * A chat id no earlier run used: the first chat of a random run id's block, as replay and
 * conform number a run's chats (src/conversation/run-ids.ts: run R, chats from R * 1000 + 1).
 * The spec makes chat ids unique in the account (spec 6.2), so a receiver that keeps state
 * per chat sees each run's chat as new, not a finished chat starting again.
 * @example pickFreshChatId() // 523001
 */
export function pickFreshChatId(): number {
  return randomInt(1, 1_000_000) * 1000 + 1;
}

/** A chat-log line's text, under both names the simulator writes it. */
const said = (text: string) => ({ message: text, text });

/**
 * A valid, realistic body for one event; the samples given one `chatId` are one chat.
 * @example buildSampleHookEvent('chat_accepted').agent.name // 'Alice Agent'
 */
export function buildSampleHookEvent(
  name: HookEventName,
  options: SampleOptions = {},
): Record<string, unknown> {
  const now = options.now ?? Math.floor(Date.now() / 1000) - 300;
  const base: HookBase = { ...SAMPLE_BASE, chatId: options.chatId ?? SAMPLE_CHAT_ID };
  switch (name) {
    case 'chat_accepted':
      return buildChatAccepted(base, SAMPLE_AGENT);
    case 'chat_updated':
      return buildChatUpdated(base, SAMPLE_AGENT);
    case 'chat_assigned':
      return buildChatAssigned(base, SAMPLE_AGENT, options.assignTo ?? SAMPLE_CRM_LINK);
    case 'chat_finished':
      return buildChatFinished(base, [SAMPLE_AGENT], {
        // the text in `message`, as the public samples carry it, and in `text`, as the
        // simulator's own chat_finished does (docs/FIDELITY.md, 2.6 chat-log item text)
        messages: [
          { timestamp: now, type: 'visitor', ...said('Hi, can I return shoes I wore once?') },
          { timestamp: now + 40, type: 'agent', agent_id: 1, ...said('Yes, within 30 days.') },
          { timestamp: now + 75, type: 'visitor', ...said('Great, thanks!') },
        ],
        rate: 'positive',
        blacklisted: false,
      });
    case 'call_event':
      return buildCallEvent(base, SAMPLE_AGENT, {
        type: 'callback',
        phone: '+49 30 1234567',
        status: 'start',
      });
    case 'offline_message':
      return buildOfflineMessage(
        base,
        { offlineMessageId: 'off-5521', message: 'Please call me back about my order 8812.' },
        options.offlineName ?? 'offline_message',
      );
    default: {
      const never: never = name;
      throw new Error(`unknown hook event ${String(never)}`);
    }
  }
}

/**
 * What `hook-target` answers by default (spec 6.2): chat_accepted shows custom_data, the
 * assign button, a crm_link, and contact_info echoing the visitor's own name, phone and
 * e-mail from the event (a default reply must not rename the customer); the others
 * `{"result":"ok"}`.
 * @example defaultHookReply('chat_finished') // { result: 'ok' }
 */
export function defaultHookReply(
  name: ContractHookEventName,
  event?: unknown,
): Record<string, unknown> {
  if (name !== 'chat_accepted') return { result: 'ok' };
  const visitor = (event as { visitor?: Record<string, unknown> } | undefined)?.visitor ?? {};
  const text = (key: string): string | undefined =>
    typeof visitor[key] === 'string' && visitor[key] !== '' ? visitor[key] : undefined;
  const contact = {
    ...(text('name') ? { name: text('name') } : {}),
    ...(text('phone') ? { phone: text('phone') } : {}),
    ...(text('email') ? { email: text('email') } : {}),
  };
  return {
    result: 'ok',
    custom_data: [
      { title: 'Customer since', content: 'March 2021' },
      { title: 'Plan', content: 'Premium' },
      { title: 'Open orders', content: '#8812 (shipped)' },
    ],
    // spec 6.2: contact_info needs a name; without one the visitor's data is left as it is
    ...(contact.name ? { contact_info: contact } : {}),
    enable_assign: true,
    crm_link: SAMPLE_CRM_LINK,
  };
}
