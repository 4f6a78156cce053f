/**
 * Text a peer sent (a bot's reply, a hook receiver's body, a customer's or an agent's message,
 * an error message from a foreign integrator) printed to a terminal with its control
 * characters escaped: an ESC sequence, a carriage return or a BEL from a hostile peer would
 * otherwise move the cursor, rewrite lines already printed, set the window title or ring
 * the bell of the user's terminal. Imports nothing: the error renderer (errors.ts) is in the
 * start-up bundle.
 */

/* eslint-disable no-control-regex -- matching control characters is what this module is for */
/** C0 but tab and line feed, DEL, C1 (U+0080-U+009F: 8-bit CSI and OSC among them). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROL_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** the same with tab and line feed, for a value that must stay on one line */
const CONTROL_LINE = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_LINE_ALL = /[\u0000-\u001f\u007f-\u009f]/g;
/* eslint-enable no-control-regex */

const NAMED: Readonly<Record<string, string>> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

const escapeOne = (char: string): string =>
  NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * `text` with every control character but line feed and tab written as an escape (`\x1b`,
 * `\r`, `\x07`, `\x9b`); with `oneLine`, line feed and tab too (`\n`, `\t`). Text without
 * one comes back as it is.
 * @example escapeControlChars('hi\u001b[2J') // 'hi\\x1b[2J'
 */
export function escapeControlChars(text: string, options: { oneLine?: boolean } = {}): string {
  if (options.oneLine)
    return CONTROL_LINE.test(text) ? text.replace(CONTROL_LINE_ALL, escapeOne) : text;
  return CONTROL.test(text) ? text.replace(CONTROL_ALL, escapeOne) : text;
}

/**
 * A value (an event a core emitted, with what peers sent in its strings) with every string in
 * it, at any depth, escaped by `escapeControlChars`; objects and arrays are copied only where
 * a string changed, so an event without control characters comes back as it is (same object).
 * Only plain objects and arrays are walked.
 * @example escapeControlCharsIn({ type: 'bot-message', text: '\u001b]0;owned\u0007' })
 */
export function escapeControlCharsIn<T>(value: T): T {
  return walk(value, 0) as T;
}

/** deeper than any event: the rest is left as it is */
const MAX_DEPTH = 12;

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return escapeControlChars(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const list = value as unknown[];
    let copy: unknown[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const next = walk(list[i], depth + 1);
      if (next !== list[i]) (copy ??= [...list])[i] = next;
    }
    return copy ?? list;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = walk(item, depth + 1);
    if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return copy ?? value;
}
