/**
 * Answer bodies that never change, serialised once: `{ result: 'ok' }` answers every
 * ingested customer message, and a JSON.stringify of it per request was a tenth of a
 * microsecond or more of the channel's answer.
 */

/** A body of strings, numbers, booleans and nulls only: frozen, it cannot change. */
type FlatJson = Readonly<Record<string, string | number | boolean | null>>;

const texts = new WeakMap<object, string>();

/**
 * Freezes `body` and keeps its JSON text for `bodyText`.
 * @example const OK = constantBody({ result: 'ok' }); bodyText(OK) // '{"result":"ok"}'
 */
export function constantBody<T extends FlatJson>(body: T): T {
  Object.freeze(body);
  texts.set(body, JSON.stringify(body));
  return body;
}

/**
 * The text a response body is sent with: a string as it is, nothing as '', a constant
 * body's kept text, anything else as JSON.
 * @example bodyText({ a: 1 }) // '{"a":1}'
 */
export function bodyText(body: unknown): string {
  if (body === undefined) return '';
  if (typeof body === 'string') return body;
  const kept = typeof body === 'object' && body !== null ? texts.get(body) : undefined;
  return kept ?? JSON.stringify(body);
}
