import { Chalk } from 'chalk';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fitFor, fitLine } from '../../../src/cli/render/fit.js';

const c = new Chalk({ level: 1 });
const plain = (text: string): string[] => stripVTControlCharacters(text).split('\n');

describe('a log line longer than the terminal', () => {
  it('breaks at spaces, its continuation under the message after the time column', () => {
    const line = `${c.dim('18:51:51.003    2.969s')}    ${c.red('✗')} hook attempt 1/1 at +0.000s ${c.dim('(15 ms, content-length)')} HTTP 500  chat_accepted chat 1`;
    expect(plain(fitLine(line, 80))).toEqual([
      '18:51:51.003    2.969s    ✗ hook attempt 1/1 at +0.000s (15 ms, content-length)',
      '                          HTTP 500  chat_accepted chat 1',
    ]);
    // the colours are kept, none cut in two
    expect(fitLine(line, 80)).toContain(c.red('✗'));
    expect(fitLine(line, 80)).toContain(c.dim('18:51:51.003    2.969s'));
  });

  it('puts a labelled line under its value, an indented one two columns in', () => {
    expect(
      plain(
        fitLine(
          '  time scale    0.2: protocol timers run 5x faster than the wall (the log shows both)',
          60,
        ),
      ),
    ).toEqual([
      '  time scale    0.2: protocol timers run 5x faster than the',
      '                wall (the log shows both)',
    ]);
    expect(
      plain(fitLine('error [SVC_E_X] Could not run the suite: the peer at http://x is gone.', 40)),
    ).toEqual(['error [SVC_E_X] Could not run the suite:', '  the peer at http://x is gone.']);
  });

  it('keeps every line within the width, and a line that fits as it is', () => {
    const long = `${c.dim('18:51:49.871    1.835s')}  ${c.green('←')} customer Ann (c-42) ${c.dim('chat 1')}  "${'word '.repeat(60).trim()}"`;
    for (const columns of [40, 80, 120])
      for (const row of plain(fitLine(long, columns)))
        expect(row.length).toBeLessThanOrEqual(columns);
    expect(fitLine('short', 80)).toBe('short');
  });

  it('is left alone where the output is no terminal (a pipe, a file: one line per event)', () => {
    const line = 'x '.repeat(100);
    expect(fitFor({ isTTY: false, columns: 80 })(line)).toBe(line);
    expect(fitFor({})(line)).toBe(line);
    expect(fitFor({ isTTY: true, columns: 80 })(line)).not.toBe(line);
  });
});

describe('a line whose message starts with a two-letter word', () => {
  it('keeps the space after it (no "notest")', () => {
    const line = `          no test checks that the page's callbacks follow the pushes they reflect`;
    expect(plain(fitLine(line, 50))).toEqual([
      "          no test checks that the page's callbacks",
      '            follow the pushes they reflect',
    ]);
  });
});
