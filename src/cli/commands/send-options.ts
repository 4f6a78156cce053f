/** The option tables of send-text, send-media, send-location, typing and status (table.ts). */
import { COORDINATE_RANGES } from '../../contract/coordinates.js';
import { CHANNEL_URL_OPTION, SEND_OPTIONS, TIMEOUT_OPTION } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

export const sendTextOptions = defineOptions('send-text', SEND_OPTIONS);

export const sendMediaOptions = defineOptions('send-media', [
  {
    key: 'file',
    flag: '--file <url>',
    type: 'string',
    required: true,
    config: false,
    description: 'http(s) URL of the file',
  },
  {
    key: 'fileName',
    flag: '--file-name <name>',
    type: 'string',
    config: false,
    description: "file name (default: the URL's last path segment)",
  },
  {
    key: 'fileSize',
    flag: '--file-size <bytes>',
    type: 'number',
    config: false,
    description:
      "size in bytes, a positive integer (the contract checks it: --force sends any number); without it, the file's server is asked (Content-Length)",
  },
  {
    key: 'thumb',
    flag: '--thumb <url>',
    type: 'string',
    config: false,
    description: 'thumbnail URL, 320 px wide',
  },
  {
    key: 'duration',
    flag: '--duration <s>',
    type: 'number',
    config: false,
    description: 'seconds, positive integer',
  },
  {
    key: 'width',
    flag: '--width <px>',
    type: 'number',
    config: false,
    description: 'pixels, positive integer',
  },
  {
    key: 'height',
    flag: '--height <px>',
    type: 'number',
    config: false,
    description: 'pixels, positive integer',
  },
  {
    key: 'caption',
    flag: '--caption <text>',
    type: 'string',
    config: false,
    description: 'text or comment (message.text)',
  },
  ...SEND_OPTIONS,
] as const satisfies readonly OptionSpec[]);

const { latitude, longitude } = COORDINATE_RANGES;

/** The coordinates' flags; the consoles' `/location` checks its words against them too. */
export const LATITUDE_OPTION = {
  key: 'latitude',
  flag: '--latitude <deg>',
  type: 'number',
  ...latitude,
  required: true,
  config: false,
  description: `latitude in degrees, ${latitude.min}..${latitude.max}`,
} as const satisfies OptionSpec;

export const LONGITUDE_OPTION = {
  key: 'longitude',
  flag: '--longitude <deg>',
  type: 'number',
  ...longitude,
  required: true,
  config: false,
  description: `longitude in degrees, ${longitude.min}..${longitude.max}`,
} as const satisfies OptionSpec;

export const sendLocationOptions = defineOptions('send-location', [
  LATITUDE_OPTION,
  LONGITUDE_OPTION,
  ...SEND_OPTIONS,
] as const satisfies readonly OptionSpec[]);

export const typingOptions = defineOptions('typing', SEND_OPTIONS);

export const statusOptions = defineOptions('status', [
  { ...CHANNEL_URL_OPTION, required: true },
  TIMEOUT_OPTION,
] as const);
