import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../../src/contract/json-text.js';

describe('parseJsonText: where a text stops being JSON', () => {
  it.each([
    // the parser takes `n` for the start of null: the token it names is the `o`
    ['not json', 1, 2, "Unexpected token 'o'"],
    ['{"a": nul}', 1, 10, "Unexpected token '}'"],
    ['[true, fals3]', 1, 12, 'Unexpected number'],
    ['{\n  "a": 1,\n  x\n}', 3, 3, 'Expected double-quoted property name'],
    [
      '{"a":1,}',
      1,
      8,
      'Expected double-quoted property name (JSON takes no comma before a closing bracket)',
    ],
    ['[1, 2,\n]', 2, 1, '(JSON takes no comma before a closing bracket)'],
    ['{\n  // a note\n  "a": 1\n}', 2, 3, '(JSON has no comments)'],
  ])('%j: line %i, column %i, %s', (text, line, column, message) => {
    const parsed = parseJsonText(text);
    expect(parsed).toMatchObject({ ok: false, line, column });
    expect(parsed.ok ? '' : parsed.message).toContain(message);
    // the column points at the character the message names
    const quoted = /token '(.)'/.exec(parsed.ok ? '' : parsed.message)?.[1];
    if (quoted) expect(text.split('\n')[line - 1]![column - 1]).toBe(quoted);
  });
});
