/**
 * The customer console of `svc-cli chat`: each line is parsed into an action. Parsing is
 * pure (tested as a table); the command sends.
 */
import { fileNameOf } from '../../http/file-name.js';
import { parseLocationWords } from './location-words.js';
import { FILE_MEDIA_TYPES, type FileMediaType } from '../../roles/integrator/kinds.js';
import { mediaTypeHint } from '../../contract/media-types.js';
import { unknownCommand } from './unknown-command.js';

export type ChatAction =
  | { kind: 'text'; text: string }
  | { kind: 'typing'; on: boolean }
  | {
      kind: 'media';
      type: FileMediaType;
      file: string;
      fileName: string;
      /** absent when not typed: the console asks the file's server (http/file-size.ts) */
      fileSize?: number;
    }
  | { kind: 'location'; latitude: number; longitude: number }
  | { kind: 'sender'; field: 'name' | 'email' | 'phone'; value: string }
  | { kind: 'agent'; text: string }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'none' }
  | { kind: 'error'; message: string };

export const CHAT_HELP = `Customer console — type a line to send it as a text message.
  /typing on|off                 typing notice (typein / typeout, spec 2.3)
  /photo <url> [name] [size]     a photo message (spec 2.4)
  /media <${FILE_MEDIA_TYPES.join('|')}> <url> [name] [size]
                                 no size: the file's server is asked
                                 (Content-Length)
  /location <latitude> <longitude>
  /name <name>   /email <email>   /phone <phone>
                                 sender fields for the next messages
  /agent <text>                  (embedded simulator) the agent answers
  //<text>                       send a line starting with / (//etc sends /etc)
  /help   /quit                  (Ctrl-D quits too; Ctrl-C exits 130)`;

/** The console's commands, for the "did you mean" of a mistyped one. */
const CHAT_COMMANDS = [
  'typing',
  'photo',
  'media',
  'location',
  'name',
  'email',
  'phone',
  'agent',
  'help',
  'quit',
] as const;

function parseMedia(type: string, given: string[], command: 'photo' | 'media'): ChatAction {
  const usage =
    command === 'photo'
      ? '/photo <url> [name] [size]'
      : `/media <${FILE_MEDIA_TYPES.join('|')}> <url> [name] [size]`;
  if (command === 'media' && type !== '' && !(FILE_MEDIA_TYPES as readonly string[]).includes(type))
    return { kind: 'error', message: mediaTypeHint(type, FILE_MEDIA_TYPES) + usage };
  // a lone number after the URL is its size: a file is rarely named "48213"
  const words =
    given.length === 2 && /^\d+$/.test(given[1] ?? '') ? [given[0], undefined, given[1]] : given;
  const [file = '', name, size] = words;
  if (type === '' || file === '') return { kind: 'error', message: usage };
  const fileSize = size === undefined ? undefined : Number(size);
  if (fileSize !== undefined && (!Number.isInteger(fileSize) || fileSize <= 0)) {
    return { kind: 'error', message: `size must be a positive integer (spec 2.4), got "${size}"` };
  }
  return {
    kind: 'media',
    type: type as FileMediaType,
    file,
    fileName: name ?? fileNameOf(file) ?? 'file',
    ...(fileSize === undefined ? {} : { fileSize }),
  };
}

/**
 * @example parseChatLine('/location 55.75 37.62') // { kind: 'location', latitude: 55.75, longitude: 37.62 }
 */
export function parseChatLine(line: string): ChatAction {
  const trimmed = line.trim();
  if (trimmed === '') return { kind: 'none' };
  if (!trimmed.startsWith('/') || trimmed.startsWith('//')) {
    return { kind: 'text', text: trimmed.startsWith('//') ? trimmed.slice(1) : line.trimEnd() };
  }
  const [command = '', ...words] = trimmed.slice(1).split(/\s+/);
  const rest = trimmed.slice(command.length + 1).trim();
  switch (command) {
    case 'typing': {
      const state = words[0] ?? 'on';
      if (state !== 'on' && state !== 'off') return { kind: 'error', message: '/typing on|off' };
      return { kind: 'typing', on: state === 'on' };
    }
    case 'photo':
      return parseMedia('photo', words, 'photo');
    case 'media':
      return parseMedia(words[0] ?? '', words.slice(1), 'media');
    case 'location': {
      const place = parseLocationWords(words);
      if (!place.ok) return { kind: 'error', message: place.message };
      return { kind: 'location', latitude: place.latitude, longitude: place.longitude };
    }
    case 'name':
    case 'email':
    case 'phone':
      if (rest === '') return { kind: 'error', message: `/${command} <${command}>` };
      return { kind: 'sender', field: command, value: rest };
    case 'agent':
      if (rest === '') return { kind: 'error', message: '/agent <text>' };
      return { kind: 'agent', text: rest };
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'quit':
    case 'exit':
      return { kind: 'quit' };
    default:
      return unknownCommand('unknown command', command, CHAT_COMMANDS);
  }
}
