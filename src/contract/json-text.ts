/**
 * JSON text helpers for the input walker: parse with a line:column on failure. V8 names
 * the position only for some syntax errors, so a small scanner finds it for the others.
 */
import { errorText } from '../errors.js';

export interface JsonParseFailure {
  ok: false;
  message: string;
  line: number;
  column: number;
}
export type JsonParseResult = { ok: true; value: unknown } | JsonParseFailure;

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** 1-based line and column of a character offset. */
export function locateOffset(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Offset of the first character that cannot continue a JSON text, found without
 * recursion (a 10,000-level document must not overflow the stack).
 */
export function findSyntaxErrorOffset(text: string): number {
  let i = 0;
  const skip = (): void => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  const scalar = (): boolean => {
    const rest = text.slice(i, i + 5);
    for (const word of ['true', 'false', 'null']) {
      if (rest.startsWith(word)) {
        i += word.length;
        return true;
      }
      if (word[0] === text[i]) {
        // `not json`: the parser takes `n` for the start of null and stops at the `o`
        let matched = 1;
        while (matched < word.length && text[i + matched] === word[matched]) matched++;
        i += matched;
        return false;
      }
    }
    if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        else if (text.charCodeAt(i) < 0x20) return false;
        i++;
      }
      if (i >= text.length) return false;
      i++;
      return true;
    }
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number) {
      i += number[0].length;
      return true;
    }
    return false;
  };
  // The stack holds the open containers; `expect` what may come next.
  const stack: string[] = [];
  let expect: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    skip();
    if (i >= text.length) return stack.length === 0 && expect === 'after' ? -1 : i;
    const ch = text[i]!;
    if (expect === 'value') {
      if (ch === '{' || ch === '[') {
        stack.push(ch);
        i++;
        skip();
        if (text[i] === (ch === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          expect = 'after';
        } else expect = ch === '{' ? 'key' : 'value';
        continue;
      }
      if (!scalar()) return i;
      expect = 'after';
      continue;
    }
    if (expect === 'key') {
      if (ch !== '"' || !scalar()) return i;
      skip();
      if (text[i] !== ':') return i;
      i++;
      expect = 'value';
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return i; // text after the document
    if (ch === ',') {
      i++;
      expect = top === '{' ? 'key' : 'value';
    } else if ((top === '{' && ch === '}') || (top === '[' && ch === ']')) {
      stack.pop();
      i++;
    } else return i;
  }
}

/**
 * What people write there that JSON does not take (a comment, a trailing comma), said after
 * the parser's message, which names neither: "Expected double-quoted property name".
 */
function whyThere(text: string, offset: number): string {
  const ch = text[offset];
  if (ch === '/' && (text[offset + 1] === '/' || text[offset + 1] === '*'))
    return ' (JSON has no comments)';
  if (ch === '}' || ch === ']') {
    let before = offset - 1;
    while (before >= 0 && WHITESPACE.has(text[before]!)) before--;
    if (text[before] === ',') return ' (JSON takes no comma before a closing bracket)';
  }
  return '';
}

/** JSON.parse with a line and column when the text is not JSON. */
export function parseJsonText(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = errorText(error);
    const position = /at position (\d+)/.exec(reason);
    const offset = position ? Number(position[1]) : Math.max(0, findSyntaxErrorOffset(text));
    const { line, column } = locateOffset(text, offset);
    // V8 quotes the whole text in some messages; keep the first clause only.
    const message = reason
      .replace(/, .*is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '');
    return { ok: false, message: `${message}${whyThere(text, offset)}`, line, column };
  }
}
