/**
 * The media types of spec 2.4, the one list: the contract's schemas, the roles, the
 * platform and the agent console all read it. No zod here, so the console parser and the
 * browser bundles can import it for nothing.
 */

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
