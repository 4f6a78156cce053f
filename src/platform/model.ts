/**
 * The simulator's state: channels as configured on the spec's setup screen (1.3), agents,
 * customers and chats. Plain data; services read and change it through the core.
 */
export type ChannelKind = 'custom' | 'widget';

export interface Channel {
  /** the channel's public id (spec 4.1 <channel_public_id>) */
  id: string;
  kind: ChannelKind;
  name: string;
  /** the random path segment (spec 1.3, 5.1): 128 bits, base64url */
  randomString: string;
  /** where agent messages go: POST {integratorUrl}/<public id> (spec 4.2) */
  integratorUrl?: string;
  /** the setup screen's chunked-encoding switch (spec 1.3, 4.2) */
  chunked: boolean;
  /** agents who receive this channel's chats */
  agentIds: number[];
}

export interface Agent {
  id: number;
  name: string;
  email: string;
  phone?: string;
  photo?: string;
}

/** A customer as the integrator identifies them (spec 2.1 sender.*); fields may change during a chat. */
export interface Customer {
  /** key within the simulator: `<channel id>/<sender.id>` */
  key: string;
  channelId: string;
  /** spec 2.1 sender.id as received; returned unchanged as recipient.id (spec 2.2) */
  senderId: string;
  /** the platform's id for the bot interface's client_id (spec 2.5) */
  clientId: string;
  /** sequential visitor number (spec 4.5 getVisitorNumber) */
  visitorNumber: number;
  name?: string;
  phone?: string;
  email?: string;
  photo?: string;
  invite?: string;
  description?: string;
  /** the widget's setUserToken value, carried into hooks (spec 4.5, 6.2) */
  userToken?: string;
  /** the widget's setCustomData fields, in array order, for the agent panel (spec 4.5) */
  customData?: Array<{ content?: string; title?: string; link?: string; key?: string }>;
  /** the public JS API's setClientAttributes (docs profile): key/value attributes */
  attributes?: Record<string, unknown>;
  /** a widget visitor's page (location.href, document.title): the hooks' `page` (spec 6.2) */
  page?: { url: string; title?: string };
}

export type ChatMode = 'bot' | 'queue' | 'agent' | 'closed';

export interface ChatLine {
  /** unix seconds (spec 2.6 chat-log message timestamp) */
  timestamp: number;
  /** spec 2.6: visitor or agent; bot lines are the simulator's addition */
  type: 'visitor' | 'agent' | 'bot';
  agentId?: number;
  text?: string;
  kind: string;
  /** an agent or bot line: the platform message id its delivery goes by (spec 2.2) */
  deliveryId?: string;
  /**
   * how that delivery ended (spec 4.2, 8), once it has: so a console opened later still shows
   * a failed delivery, not only one it saw happen
   */
  delivery?: { result: string; attempts: number; agentNotice?: string };
  /** a media line (spec 2.4): its file link, name and size, or its coordinates */
  media?: LineMedia;
}

/** spec 2.4: what a media message carries beside its type. */
export interface LineMedia {
  file?: string;
  file_name?: string;
  file_size?: number;
  latitude?: number;
  longitude?: number;
}

/** The media fields of a message (spec 2.4), or undefined for a text or a typing message. */
export function mediaOf(message: Record<string, unknown>): LineMedia | undefined {
  const media: LineMedia = {};
  if (typeof message.file === 'string') media.file = message.file;
  if (typeof message.file_name === 'string') media.file_name = message.file_name;
  if (typeof message.file_size === 'number') media.file_size = message.file_size;
  if (typeof message.latitude === 'number') media.latitude = message.latitude;
  if (typeof message.longitude === 'number') media.longitude = message.longitude;
  return Object.keys(media).length > 0 ? media : undefined;
}

/** A media message as one line of text: `[photo] a.png`, `[location] 52.5, 13.4`. */
export function mediaLabel(type: string, media: LineMedia | undefined): string {
  const detail =
    media?.latitude !== undefined && media.longitude !== undefined
      ? `${media.latitude}, ${media.longitude}`
      : (media?.file_name ?? media?.file);
  return detail ? `[${type}] ${detail}` : `[${type}]`;
}

export interface Chat {
  /** numeric chat id (spec 6.2 chat_id is a number; the bot interface uses it as a string) */
  id: number;
  channelId: string;
  customerKey: string;
  mode: ChatMode;
  /** the agent who accepted (pressed Reply) */
  agentId?: number;
  /** agents who took part, for chat_finished (spec 6.2) */
  agentIds: number[];
  lines: ChatLine[];
  openedAt: number;
  /** protocol ms of the last customer activity, for "the last active customer" */
  lastActivityMs: number;
  /** free-form per-service data (bot, hooks) keyed by service name */
  ext: Record<string, unknown>;
}

export interface PlatformState {
  channels: Map<string, Channel>;
  agents: Agent[];
  agentsOnline: boolean;
  customers: Map<string, Customer>;
  chats: Map<number, Chat>;
  nextChatId: number;
  nextVisitorNumber: number;
  /** the client id of visitor number 1; visitor n's is this plus n - 1 (clientIdOf) */
  firstClientId: number;
}

/**
 * Where a platform's ids start. Ids are unique within the account (spec 2.2), so a peer that
 * keeps state across runs (a bot with a database) must not see a second run's chat 1 as the
 * first run's: `conform` starts each run's ids from a run id.
 */
export interface IdSeed {
  /** the first chat id (default 1) */
  firstChatId?: number;
  /** the client id of the first visitor (default 501; a run's `<run>501`, src/conversation/run-ids.ts) */
  firstClientId?: number;
}

/**
 * Client ids start this far above chat ids in a block of 1000 (chat 1, client 501): the two
 * never coincide in a run of fewer than 500 chats, so a peer that swaps chat_id and client_id
 * is caught.
 */
export const CLIENT_ID_OFFSET = 500;

/** Creates an empty state with the given agents. */
export function createState(
  agents: Agent[],
  agentsOnline: boolean,
  ids: IdSeed = {},
): PlatformState {
  return {
    channels: new Map(),
    agents,
    agentsOnline,
    customers: new Map(),
    chats: new Map(),
    nextChatId: ids.firstChatId ?? 1,
    nextVisitorNumber: 1,
    firstClientId: ids.firstClientId ?? CLIENT_ID_OFFSET + 1,
  };
}

/**
 * The bot interface's client_id of a visitor: a string of digits. The contract types it a
 * string (spec 2.5); the platform's public Bot API samples write a number in a string, and
 * bots built against the real platform keep it in an integer column (docs/FIDELITY.md).
 * @example clientIdOf({ firstClientId: 42_501 }, 2) // '42502'
 */
export function clientIdOf(
  state: Pick<PlatformState, 'firstClientId'>,
  visitorNumber: number,
): string {
  return String(state.firstClientId + visitorNumber - 1);
}

export const DEFAULT_AGENTS: Agent[] = [
  {
    id: 1,
    name: 'Alice Agent',
    email: 'alice@example.com',
    photo: 'https://example.com/avatars/alice.png',
  },
  { id: 2, name: 'Bob Agent', email: 'bob@example.com' },
];

/** The chat log keeps this many lines (a long load test must not grow memory without bound). */
export const MAX_CHAT_LINES = 1000;

/** Appends a line to the chat log, dropping the oldest beyond MAX_CHAT_LINES. */
export function appendChatLine(chat: Chat, line: ChatLine): void {
  chat.lines.push(line);
  if (chat.lines.length > MAX_CHAT_LINES * 1.25)
    chat.lines.splice(0, chat.lines.length - MAX_CHAT_LINES);
}
