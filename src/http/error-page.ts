/**
 * A peer's HTML error page, told by its title. Web frameworks answer an unhandled exception
 * with a page of many KB whose first bytes are a doctype and meta tags, and whose `<title>`
 * names the exception and the path (Django: `RuntimeError at /bot`; Werkzeug's debugger:
 * `KeyError: 'message' // Werkzeug Debugger`). A reason line quotes the title instead of
 * the page's start, which tells the peer's author nothing.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

/**
 * The title of an HTML document, entities decoded and white space folded; undefined for a
 * body that is not an HTML document or has no title.
 * @example errorPageTitle('<!doctype html><title>KeyError at /bot</title>') // 'KeyError at /bot'
 */
export function errorPageTitle(body: string): string | undefined {
  // the title stands in the head, before any content: the first 8 KB hold it
  const head = body.slice(0, 8192);
  if (!/^\s*<(?:!doctype\s+html|html)[\s>]/i.test(head)) return undefined;
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head);
  const title =
    match?.[1] === undefined ? '' : decodeEntities(match[1]).replace(/\s+/g, ' ').trim();
  return title === '' ? undefined : title;
}

/**
 * The first line of text after a page's title, tags dropped (scripts and styles whole),
 * entities decoded; undefined when there is none.
 */
function firstTextLine(body: string): string | undefined {
  const head = body.slice(0, 8192);
  const end = /<\/title>/i.exec(head);
  const rest = head
    .slice(end ? end.index + end[0].length : 0)
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  for (const line of decodeEntities(rest).split('\n')) {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text !== '') return text.length > 100 ? `${text.slice(0, 99)}…` : text;
  }
  return undefined;
}

/**
 * An HTML error page in one phrase, `HTML page "<title>" (<n> characters)`; undefined for
 * any other body. A title of one word says nothing (Express answers every unrouted path and
 * every error with the title "Error"): the page's first line of text follows it, which there
 * names the method and path (`Cannot POST /`) or the exception.
 * @example describeErrorPage(djangoPage) // 'HTML page "RuntimeError at /bot" (63481 characters)'
 * @example describeErrorPage(expressPage) // 'HTML page "Error": Cannot POST / (140 characters)'
 */
export function describeErrorPage(body: string): string | undefined {
  const title = errorPageTitle(body);
  if (title === undefined) return undefined;
  const line = /\s/.test(title) ? undefined : firstTextLine(body);
  const said = line === undefined || line === title ? '' : `: ${line}`;
  return `HTML page "${title}"${said} (${body.length} characters)`;
}

/**
 * A peer's reply body for a one-line reason: an HTML error page by its title, any other body
 * (JSON, text) flattened and cut to `max` characters; '' for an empty body.
 * @example quoteReplyBody('{"error": "boom"}') // '{"error": "boom"}'
 */
export function quoteReplyBody(body: string, max = 80): string {
  const page = describeErrorPage(body);
  if (page !== undefined) return page;
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
