/**
 * A peer that routes only its path with a trailing slash. The platform appends a segment to
 * the URL it is given and posts there without a slash (spec 4.2, 4.3), or posts to the hook
 * URL as set (spec 4.4). A framework whose route ends in `/` then answers with a redirect to
 * the same path plus `/` (which a POST does not follow), a 404 or 405, or, Django with
 * APPEND_SLASH, a 500 page saying it cannot redirect a POST: none of which says to its
 * author that the slash is the whole problem.
 */

/** The parts of a peer's answer the check reads; header names in lower case. */
export interface SlashReply {
  status: number;
  headers?: Readonly<Record<string, string | undefined>>;
  body: string;
}

const REDIRECTS = new Set([301, 302, 307, 308]);

/**
 * True when `reply` asks for `url` with a trailing slash: a redirect whose Location is the
 * same path plus `/` (its query kept), or an error status whose body speaks of APPEND_SLASH
 * or a trailing slash. False for a URL that already ends in `/`.
 * @example wantsTrailingSlash({ status: 308, headers: { location: '/bot/t/' }, body: '' }, 'http://h/bot/t') // true
 */
export function wantsTrailingSlash(reply: SlashReply, url: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.pathname.endsWith('/')) return false;
  const location = reply.headers?.location;
  if (REDIRECTS.has(reply.status) && location !== undefined) {
    try {
      const to = new URL(location, target);
      // the host may differ (a framework that builds the Location from its own name for itself)
      return (
        to.pathname === `${target.pathname}/` && (to.search === '' || to.search === target.search)
      );
    } catch {
      return false;
    }
  }
  return reply.status >= 400 && /APPEND_SLASH|trailing slash/i.test(reply.body.slice(0, 200_000));
}

export interface SlashHintOptions {
  /** the URL as shown (a bot token masked) */
  shownUrl?: string | undefined;
  /**
   * the spec section the URL's form comes from: 4.2 integrator, 4.3 bot, 4.4 hooks (a hook
   * URL is used as set, so it can be set with the slash instead); cited unless `cite` is false
   */
  spec: '4.2' | '4.3' | '4.4';
  /** false: the line the hint joins cites the section already */
  cite?: boolean;
}

/**
 * One clause for a failure line when `reply` asks for `url` with a trailing slash; undefined
 * otherwise. A hook URL is used as set (spec 4.4), so it can be set with the slash instead.
 * @example trailingSlashHint(reply, url, { spec: '4.3' }) // 'the platform posts to http://h/bot/t without a trailing slash (spec 4.3); ...'
 */
export function trailingSlashHint(
  reply: SlashReply,
  url: string,
  options: SlashHintOptions,
): string | undefined {
  if (!wantsTrailingSlash(reply, url)) return undefined;
  const shown = options.shownUrl ?? url;
  const fix =
    options.spec === '4.4'
      ? 'route that path (without the slash) in your app, or set the hook URL with the slash'
      : 'route that path (without the slash) in your app';
  const spec = options.cite === false ? '' : ` (spec ${options.spec})`;
  return `the platform posts to ${shown} without a trailing slash${spec}; ${fix}`;
}

/**
 * One clause for a bot's 404, when no trailing slash explains it: the platform posts each
 * event to the bot provider URL plus `/<token>` (spec 4.3), so a bot that answers 404 there
 * most often routes another path or checks another token. The token is shown as `<token>`.
 * @example botRouteHint(404, 'http://h/bot/t0k') // 'the platform posts each event to the bot provider URL plus /<token> (here /bot/<token>): ...'
 */
export function botRouteHint(status: number, url: string): string | undefined {
  if (status !== 404) return undefined;
  let path: string;
  try {
    path = new URL(url).pathname.replace(/\/[^/]*$/, '/<token>');
  } catch {
    return undefined;
  }
  // a provider URL with no path of its own: "(here /<token>)" alone repeated the rule
  const here = path === '/<token>' ? '/<token> at the root: the URL has no path of its own' : path;
  return `the platform posts each event to the bot provider URL plus /<token> (here ${here}): is that your bot's route, and does it expect the token the platform was given?`;
}
