/**
 * Secret redaction of journal records: the secrets a run knows (channel random strings, bot
 * tokens, the control token), the token fields of JSON and form bodies, and the credentials
 * headers, masked as `***` before a record is stored.
 */
import type { ExchangeInput } from './record.js';

/**
 * Masks secrets in one string of a record. `where` is `body` for a request or response body:
 * there a secret is masked only as a path segment of a URL (after a `/`), since the secrets a
 * journal hides by value (the channel's random string, a bot token) travel in paths (spec
 * 4.1, 4.3), while a body's own values may equal one by chance (a bot whose token is its
 * name would otherwise lose every `"id":"<name>"`). A redactor gives the same answer for the
 * same text every time (the journal remembers its last answers).
 */
export type Redactor = (text: string, where?: 'body') => string;

/**
 * Replaces every occurrence of the given secrets by `***` (in a body, those in a URL path);
 * the identity when there are none.
 * @example createRedactor(['t0k3n'])('/bot/t0k3n') // '/bot/***'
 */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const list = [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const alternatives = list.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const anywhere = new RegExp(alternatives, 'g');
  const inPath = new RegExp(`(?<=/)(?:${alternatives})`, 'g');
  // the last string that held a secret, and its masked form, per place: the same channel or
  // bot URL comes in request after request, and a string compare beats the regex replace
  const last = { text: '', masked: '', body: { text: '', masked: '' } };
  // includes() first: most strings hold no secret, and a plain search beats the regex scan
  return (text, where) => {
    for (const secret of list) {
      if (!text.includes(secret)) continue;
      const seen = where === 'body' ? last.body : last;
      if (text !== seen.text) {
        seen.masked = text.replace(where === 'body' ? inPath : anywhere, '***');
        seen.text = text;
      }
      return seen.masked;
    }
    return text;
  };
}

const SECRET_FIELDS =
  /("(?:access_token|refresh_token|client_secret)"\s*:\s*")(?:[^"\\]|\\.)*"|((?:^|&)(?:access_token|refresh_token|client_secret)=)[^&]*/g;

/** Adds the secrets every journal hides (token fields of JSON and form bodies) to a redactor. */
export function withKnownSecrets(redact: Redactor | undefined): Redactor {
  return (text, where) => {
    const masked =
      text.includes('token') || text.includes('secret')
        ? text.replace(SECRET_FIELDS, (_m, json?: string, form?: string) =>
            json === undefined ? `${form ?? ''}***` : `${json}***"`,
          )
        : text;
    return redact ? redact(masked, where) : masked;
  };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * The redaction of whole exchanges: a redactor applied to the strings of an exchange that can
 * carry secrets (URLs, headers, bodies; the other fields are the recorder's own words and
 * numbers). The exchange is the caller's, so it is copied, and only when something changes.
 * @example const redactExchange = createExchangeRedactor(withKnownSecrets(undefined));
 */
export function createExchangeRedactor(redact: Redactor): (input: ExchangeInput) => ExchangeInput {
  // one memory each: a request's and a response's headers differ
  const headersOf = createHeadersRedactor(redact);
  const responseHeadersOf = createHeadersRedactor(redact);
  // the URL and the answer's body come again request after request (a channel's URL, its
  // `{"result":"ok"}`): the same text gets the last answer without a search
  const urlOf = lastAnswerOf((text) => redact(text));
  const responseBodyOf = lastAnswerOf((text) => redact(text, 'body'));
  return (input) => {
    const { request, response } = input;
    const url = urlOf(request.url);
    const headers = request.headers && headersOf(request.headers);
    const body = request.body === undefined ? undefined : redact(request.body, 'body');
    let out = input;
    if (url !== request.url || headers !== request.headers || body !== request.body) {
      const copy: ExchangeInput['request'] = { ...request, url };
      if (headers) copy.headers = headers;
      if (body !== undefined) copy.body = body;
      out = { ...input, request: copy };
    }
    if (response) {
      const responseHeaders = response.headers && responseHeadersOf(response.headers);
      const responseBody = response.body === undefined ? undefined : responseBodyOf(response.body);
      if (responseHeaders !== response.headers || responseBody !== response.body) {
        const copy = { ...response };
        if (responseHeaders) copy.headers = responseHeaders;
        if (responseBody !== undefined) copy.body = responseBody;
        if (out === input) out = { ...input, response: copy };
        else out.response = copy;
      }
    }
    return out;
  };
}

/** `redact` remembering its last text and answer (a redactor answers the same text alike). */
function lastAnswerOf(redact: (text: string) => string): (text: string) => string {
  let last: string | undefined;
  let answer = '';
  return (text) => {
    // anything but a string goes to the redactor, which refuses it (the record says why)
    if (typeof text !== 'string' || text !== last) {
      answer = redact(text);
      last = text;
    }
    return answer;
  };
}

/**
 * Header values through the redactor; credentials headers keep only their scheme. The same
 * object when nothing changes. A client sends the same headers request after request (only
 * Content-Length varies, and often not even that): headers equal to the last ones, name for
 * name and value for value, get the last answer without a search.
 */
function createHeadersRedactor(
  redact: Redactor,
): (headers: Record<string, string>) => Record<string, string> {
  let lastNames: string[] = [];
  let lastValues: string[] = [];
  /** the last headers' masked copy; undefined when they were stored as they came */
  let lastMasked: Record<string, string> | undefined;
  const sameAsLast = (headers: Record<string, string>): boolean => {
    let i = 0;
    for (const key in headers) {
      if (lastNames[i] !== key || lastValues[i] !== headers[key]) return false;
      i++;
    }
    return i === lastNames.length;
  };
  return (headers) => {
    if (sameAsLast(headers)) return lastMasked ?? headers;
    const names: string[] = [];
    const values: string[] = [];
    let out: Record<string, string> | undefined;
    for (const key in headers) {
      const value = headers[key] as string;
      names.push(key);
      values.push(value);
      const masked = SECRET_HEADERS.has(key)
        ? value.replace(/^(\S+\s+)?.+$/, '$1***')
        : redact(value);
      if (masked !== value) {
        out ??= { ...headers };
        out[key] = masked;
      }
    }
    lastNames = names;
    lastValues = values;
    lastMasked = out;
    return out ?? headers;
  };
}
