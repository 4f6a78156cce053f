/**
 * The agent console of `svc-cli platform`: each stdin line is parsed into an action on the
 * simulator. Parsing is pure (tested as a table); running happens in the command.
 */
import { FILE_MEDIA_TYPES } from '../../contract/media-types.js';
import { fileNameOf } from '../../http/file-name.js';

export type ConsoleAction =
  | { kind: 'say'; customerId?: string; text: string }
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

export const CONSOLE_HELP = `Agent console — type a line to answer the last active customer.
  @<customer> <text>                 answer one customer (their sender.id)
  /typing on|off [@customer]         typing notice (typein / typeout)
  /media <video|audio|voice|photo|sticker|document> <url> [file name] [size] [@customer]
                                     no size: the file's server is asked (Content-Length)
  /location <latitude> <longitude> [@customer]
  /offline  /online                  agents go offline / online (status 0 / 1)
  /close [@customer]                 close the chat
  /chats                             list chats
  /assign [@customer]                press the crm_link button (hook chat_assigned)
  /call <phone> [error <reason>] [@customer]   a callback call (hook call_event)
  /help                              this text`;

const MEDIA: readonly string[] = FILE_MEDIA_TYPES;

/** Splits off a trailing or leading `@customer`. */
function takeCustomer(words: string[]): { words: string[]; customerId?: string } {
  const index = words.findIndex((w) => w.startsWith('@') && w.length > 1);
  if (index < 0) return { words };
  const customerId = (words[index] ?? '').slice(1);
  return { words: words.filter((_, i) => i !== index), customerId };
}

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
    return { kind: 'say', text: trimmed };
  }
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
        return { kind: 'error', message: `/media <${MEDIA.join('|')}> <url> [file name] [size]` };
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
      const [lat, lon] = words.map(Number);
      if (lat === undefined || lon === undefined || Number.isNaN(lat) || Number.isNaN(lon)) {
        return { kind: 'error', message: '/location <latitude> <longitude>' };
      }
      return withCustomer(
        { kind: 'media' as const, message: { type: 'location', latitude: lat, longitude: lon } },
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
    default:
      return { kind: 'error', message: `unknown console command /${command}; /help lists them` };
  }
}
