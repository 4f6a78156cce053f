/**
 * A channel URL as the commands that send to it read it: `{base_url}/<random_string>/
 * <channel_public_id>` (spec 4.1), or a proxy's `<url>/channel`. What a user pastes instead
 * (the banner's status URL, a URL with a query) is said for what it is before anything is
 * sent: the platform's 404 or 405 for it named the wrong thing. A URL of another shape is
 * left to the server: `svc-cli proxy channel` takes the channel at one segment.
 */
import { inputError } from '../errors.js';

const SHAPE = '{base_url}/<random_string>/<channel_public_id> (spec 4.1)';

/**
 * Throws SVC_E_CHANNEL_URL when `text` cannot be a channel URL.
 * @example checkChannelUrl('http://127.0.0.1:8800/abc/shop/status') // throws: the status URL
 */
export function checkChannelUrl(text: string): void {
  const url = new URL(text);
  const segments = url.pathname.split('/').filter((s) => s !== '');
  /**
   * The URL's first `count` path segments, the random string (a secret, spec 5.1: the one
   * before the public id, the `publicIdAt`th) masked.
   */
  const shown = (count: number, publicIdAt: number): string =>
    `${url.origin}/${segments
      .slice(0, count)
      .map((s, i) => (i === publicIdAt - 1 ? '***' : s))
      .join('/')}`;
  const last = segments.length - 1;
  // the simulator's base URL, as its banner's first line gives it: no channel named at all
  if (segments.length === 0)
    throw inputError(
      'SVC_E_CHANNEL_URL',
      `Could not use the channel URL ${url.origin}/: it names no channel; expected ${SHAPE}.`,
      "Copy the channel URL line of svc-cli platform's banner (or your channel settings), not its listening address.",
    );
  if (segments.length >= 3 && segments[last] === 'status')
    throw inputError(
      'SVC_E_CHANNEL_URL',
      `Could not use the channel URL ${shown(last + 1, last - 1)}: it is the channel's status URL.`,
      `The channel URL is the same without /status: ${shown(last, last - 1)}`,
    );
  if (url.search !== '' || url.hash !== '')
    throw inputError(
      'SVC_E_CHANNEL_URL',
      `Could not use the channel URL ${shown(last + 1, last)}${url.search}${url.hash}: a channel URL has no query string or fragment; expected ${SHAPE}.`,
      `Leave out what follows the channel's public id: ${shown(last + 1, last)}`,
    );
}
