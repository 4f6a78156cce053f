/**
 * The agent console of `svc-cli platform`: each stdin line is parsed into an action on the
 * simulator. Parsing is pure (tested as a table); running happens in the command.
 */
import { FILE_MEDIA_TYPES, mediaTypeHint } from '../../contract/media-types.js';
import { fileNameOf } from '../../http/file-name.js';
import { parseLocationWords } from './location-words.js';
import { unknownCommand } from './unknown-command.js';
import type { PlatformCore } from '../../platform/core.js';
import type { ConsoleChatsEvent } from '../render/console-chats.js';

export type ConsoleAction =
  | { kind: 'say'; customerId?: string; text: string; hint?: string }
  | { kind: 'typing'; customerId?: string; typing: boolean }
  | { kind: 'media'; customerId?: string; message: Record<string, unknown> & { type: string } }
  | { kind: 'agents'; online: boolean }
  | { kind: 'close'; customerId?: string }
  | { kind: 'chats' }
  | { kind: 'assign'; customerId?: string }
  | { kind: 'call'; phone: string; customerId?: string; errorReason?: string }
  | { kind: 'help' }
  | { kind: 'none' }
  | { kind: 'error'; message: string };

export const CONSOLE_HELP = `Agent console — type a line to answer the last active customer
(the one you last answered or @addressed, unless another customer wrote since;
once that chat is closed, @<customer> picks the next one).
  @<customer> <text>                 answer one customer (their sender.id)
  /typing on|off [@customer]         typing notice (typein / typeout)
  /media <type> <url> [file name] [size] [@customer]
                                     type: video, audio, voice, photo, sticker
                                     or document; no size: the file's server
                                     is asked (Content-Length)
  /location <latitude> <longitude> [@customer]
  /offline  /online                  agents go offline / online (status 0 / 1)
  /close [@customer]                 close the chat
  /chats                             list chats
  /assign [@customer]                press the crm_link button
                                     (hook chat_assigned)
  /call <phone> [error <reason>] [@customer]
                                     a callback call (hook call_event)
  //<text>                           answer with a line starting with /
                                     (//etc/hosts sends /etc/hosts)
  /help                              this text
Ctrl-C stops the platform.`;

const MEDIA: readonly string[] = FILE_MEDIA_TYPES;

/** A console command's name typed without its slash. */
const BARE_COMMAND = /^(help|\?|quit|exit|chats|close|offline|online)$/i;
const SAID_NOT_RUN = '(a plain line answers the customer; /help lists the console commands)';

/** Splits off a trailing or leading `@customer`. */
function takeCustomer(words: string[]): { words: string[]; customerId?: string } {
  const index = words.findIndex((w) => w.startsWith('@') && w.length > 1);
  if (index < 0) return { words };
  const customerId = (words[index] ?? '').slice(1);
  return { words: words.filter((_, i) => i !== index), customerId };
}

/** The console's commands, for the "did you mean" of a mistyped one. */
const AGENT_COMMANDS = [
  'typing',
  'media',
  'location',
  'offline',
  'online',
  'close',
  'chats',
  'assign',
  'call',
  'help',
] as const;

const withCustomer = <T extends object>(
  action: T,
  customerId?: string,
): T & { customerId?: string } => (customerId === undefined ? action : { ...action, customerId });

/**
 * @example parseConsoleLine('@c-42 Hello') // { kind: 'say', customerId: 'c-42', text: 'Hello' }
 */
export function parseConsoleLine(line: string): ConsoleAction {
  const trimmed = line.trim();
  if (trimmed === '') return { kind: 'none' };
  if (!trimmed.startsWith('/')) {
    const match = /^@(\S+)\s+([\s\S]+)$/.exec(trimmed);
    if (match) return { kind: 'say', customerId: match[1] ?? '', text: match[2] ?? '' };
    if (trimmed.startsWith('@')) return { kind: 'error', message: `nothing to say to ${trimmed}` };
    // a newcomer's `help` or `quit` is sent, as any line, and told what it was
    return BARE_COMMAND.test(trimmed)
      ? { kind: 'say', text: trimmed, hint: SAID_NOT_RUN }
      : { kind: 'say', text: trimmed };
  }
  // `//` escapes the slash, as in chat's console: a path or a URL is something agents say
  if (trimmed.startsWith('//')) return { kind: 'say', text: trimmed.slice(1) };
  const [command = '', ...rest] = trimmed.slice(1).split(/\s+/);
  const { words, customerId } = takeCustomer(rest);
  switch (command) {
    case 'typing': {
      const state = words[0] ?? 'on';
      if (state !== 'on' && state !== 'off') return { kind: 'error', message: '/typing on|off' };
      return withCustomer({ kind: 'typing' as const, typing: state === 'on' }, customerId);
    }
    case 'media': {
      // a lone number after the URL is its size: a file is rarely named "48213"
      const [type = '', file = '', fileName, size] =
        words.length === 3 && /^\d+$/.test(words[2] ?? '')
          ? [words[0], words[1], undefined, words[2]]
          : words;
      if (!MEDIA.includes(type) || file === '') {
        const usage = `/media <${MEDIA.join('|')}> <url> [file name] [size]`;
        return { kind: 'error', message: `${mediaTypeHint(type, MEDIA)}${usage}` };
      }
      const name = fileName ?? fileNameOf(file) ?? 'file';
      // no size typed: the command asks the file's server (http/file-size.ts)
      const fileSize = size === undefined ? {} : { file_size: Number(size) };
      return withCustomer(
        { kind: 'media' as const, message: { type, file, file_name: name, ...fileSize } },
        customerId,
      );
    }
    case 'location': {
      const place = parseLocationWords(words);
      if (!place.ok) return { kind: 'error', message: place.message };
      const { latitude, longitude } = place;
      return withCustomer(
        { kind: 'media' as const, message: { type: 'location', latitude, longitude } },
        customerId,
      );
    }
    case 'offline':
      return { kind: 'agents', online: false };
    case 'online':
      return { kind: 'agents', online: true };
    case 'close':
      return withCustomer({ kind: 'close' as const }, customerId);
    case 'chats':
      return { kind: 'chats' };
    case 'assign':
      return withCustomer({ kind: 'assign' as const }, customerId);
    case 'call': {
      // the phone may be written with spaces (+49 30 1234567): it runs up to `error`
      const at = words.indexOf('error');
      const phone = (at < 0 ? words : words.slice(0, at)).join(' ');
      const reason = at < 0 ? '' : words.slice(at + 1).join(' ');
      if (phone === '' || (at >= 0 && reason === ''))
        return { kind: 'error', message: '/call <phone> [error <reason>]' };
      const errorReason = reason === '' ? {} : { errorReason: reason };
      return withCustomer({ kind: 'call' as const, phone, ...errorReason }, customerId);
    }
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'quit':
    case 'exit':
    case 'q':
      // chat's console has /quit; this one serves until the platform is stopped
      return { kind: 'error', message: `no /${command} here: Ctrl-C stops the platform` };
    default:
      return unknownCommand('unknown console command', command, AGENT_COMMANDS);
  }
}

/** What the console needs to know of the simulator's chats to pick the addressee. */
export interface ConsoleChats {
  /** protocol ms now (the clock the chats' activity is stamped with) */
  now(): number;
  /** the customer of the open chat with the latest customer activity, and when it was */
  lastWriter(): { customerId: string; atMs: number } | undefined;
  /** whether the customer has an open chat */
  isOpen(customerId: string): boolean;
}

/**
 * "The last active customer" a line without `@customer` answers is whom the agent last
 * addressed (by name, or by a plain line to the last writer), unless a customer wrote since: after `@c-1 just for you`, `/typing on` goes to
 * c-1, as the agent expects, not to whichever customer wrote last before that.
 * @example const address = createAddressee(chats); address(parseConsoleLine('/typing on'))
 */
export function createAddressee(chats: ConsoleChats): (act: ConsoleAction) => ConsoleAction {
  let addressed: { customerId: string; atMs: number } | undefined;
  return (act) => {
    if (!ADDRESSED_KINDS.has(act.kind)) return act;
    const named = (act as { customerId?: string }).customerId;
    if (named !== undefined) {
      // a name with no open chat is refused where it is sent: the agent is still where they were
      if (chats.isOpen(named)) addressed = { customerId: named, atMs: chats.now() };
      return act;
    }
    const writer = chats.lastWriter();
    // a customer who wrote after the agent addressed someone is the one to answer; answered
    // so, that chat is where the agent is now: once it closes, a plain line goes nowhere else
    if (addressed === undefined || (writer !== undefined && writer.atMs > addressed.atMs)) {
      if (writer !== undefined) addressed = { customerId: writer.customerId, atMs: chats.now() };
      return act;
    }
    if (chats.isOpen(addressed.customerId))
      return { ...act, customerId: addressed.customerId } as ConsoleAction;
    // the chat the agent was in is closed: another customer's chat is not where they were
    return { kind: 'error', message: noOpenChat(addressed.customerId) };
  };
}

/** The line for a plain line after the chat the agent was in was closed. */
const noOpenChat = (customerId: string): string =>
  `Not sent: no open chat to answer (the chat with ${customerId} is closed).\n` +
  '  Pick a customer: @<customer> <text> (/chats lists them)';

/**
 * The simulator's chats as the agent console's addressee sees them.
 * @example createAddressee(consoleChatsOf(core))
 */
export function consoleChatsOf(core: PlatformCore): ConsoleChats {
  const open = () => [...core.state.chats.values()].filter((chat) => chat.mode !== 'closed');
  const senderOf = (chat: { customerKey: string }) =>
    core.state.customers.get(chat.customerKey)?.senderId;
  return {
    now: () => core.clock.now(),
    lastWriter: () => {
      const chat = open().sort((a, b) => b.lastActivityMs - a.lastActivityMs)[0];
      const customerId = chat && senderOf(chat);
      return chat && customerId !== undefined
        ? { customerId, atMs: chat.lastActivityMs }
        : undefined;
    },
    isOpen: (customerId) => open().some((chat) => senderOf(chat) === customerId),
  };
}

/**
 * The simulator's chats as `/chats` lists them (the console renders the event).
 * @example out.event(listConsoleChats(core), formatConsoleChats)
 */
export function listConsoleChats(core: PlatformCore): ConsoleChatsEvent {
  const chats = [...core.state.chats.values()].map((chat) => ({
    chatId: chat.id,
    customerId: core.state.customers.get(chat.customerKey)?.senderId ?? '?',
    mode: chat.mode,
    lines: chat.lines.length,
  }));
  return { type: 'console-chats', chats };
}

/** The actions that go to one customer (`@customer` or the last active one). */
const ADDRESSED_KINDS: ReadonlySet<ConsoleAction['kind']> = new Set([
  'say',
  'typing',
  'media',
  'close',
  'assign',
  'call',
]);
