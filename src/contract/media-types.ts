/**
 * The media types of spec 2.4, the one list: the contract's schemas, the roles, the
 * platform and the agent console all read it. No zod here, so the console parser and the
 * browser bundles can import it for nothing.
 */
import { closestNames } from '../suggest.js';

/** spec 2.4: the media types, sent like text messages with extra fields. */
export const MEDIA_TYPES = [
  'video',
  'audio',
  'voice',
  'photo',
  'sticker',
  'document',
  'location',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** The file-carrying media types (spec 2.4): all but `location`, which carries coordinates. */
export type FileMediaType = Exclude<MediaType, 'location'>;
export const FILE_MEDIA_TYPES: readonly FileMediaType[] = MEDIA_TYPES.filter(
  (t): t is FileMediaType => t !== 'location',
);

/**
 * The words people type for a media type that is not its name (`pic` for photo, `pdf` for
 * document): edit distance alone suggested `voice` for `pic`. Read by "did you mean" only;
 * none is accepted as the type.
 */
const MEDIA_TYPE_SYNONYMS: Readonly<Record<string, FileMediaType>> = {
  pic: 'photo',
  pics: 'photo',
  picture: 'photo',
  image: 'photo',
  img: 'photo',
  jpg: 'photo',
  jpeg: 'photo',
  png: 'photo',
  gif: 'photo',
  movie: 'video',
  clip: 'video',
  mp4: 'video',
  sound: 'audio',
  music: 'audio',
  mp3: 'audio',
  'voice-note': 'voice',
  voicenote: 'voice',
  ptt: 'voice',
  ogg: 'voice',
  file: 'document',
  doc: 'document',
  pdf: 'document',
  attachment: 'document',
  emoji: 'sticker',
  webp: 'sticker',
};

/**
 * The file media type a word typed for one most likely means: the type it is a common name
 * for, else undefined (the caller's edit-distance suggestion applies).
 * @example mediaTypeMeant('pic') // 'photo'
 */
export function mediaTypeMeant(typed: string): FileMediaType | undefined {
  const word = typed.trim().toLowerCase();
  return Object.hasOwn(MEDIA_TYPE_SYNONYMS, word) ? MEDIA_TYPE_SYNONYMS[word] : undefined;
}

/**
 * The start of a console's answer to a media type it does not know: what it is and the type
 * meant (a common name, else the nearest by spelling); empty for an empty or known type.
 * @example mediaTypeHint('pic', FILE_MEDIA_TYPES) // '"pic" is not a media type (spec 2.4); did you mean photo? '
 */
export function mediaTypeHint(typed: string, known: readonly string[]): string {
  if (typed === '' || known.includes(typed)) return '';
  const meant = mediaTypeMeant(typed) ?? closestNames(typed, known, { maxDistance: 2 })[0];
  return `"${typed}" is not a media type (spec 2.4)${meant ? `; did you mean ${meant}?` : ':'} `;
}
