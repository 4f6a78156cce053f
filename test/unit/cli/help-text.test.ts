/** `--help`'s closing text fitted to the terminal (src/cli/help-text.ts). */
import { describe, expect, it } from 'vitest';
import { fitHelpText, helpWidth } from '../../../src/cli/help-text.js';

const prose =
  'Everything runs in one process on a virtual clock by default: a conversation with a 9 s\n' +
  'redelivery series takes milliseconds. Naming a real peer switches to real time.\n' +
  '\n' +
  'Examples:\n' +
  '  $ svc-cli replay my-flows/ --integrator-url http://127.0.0.1:9000 --reporter junit --out report.xml\n' +
  'Exit codes:\n' +
  '0 ok\n' +
  '1 a conversation failed';

describe('fitHelpText', () => {
  it('re-wraps written prose at the width, and keeps examples and short lines as written', () => {
    const fitted = fitHelpText(prose, 60).split('\n');
    for (const line of fitted.filter((l) => !l.startsWith('  $')))
      expect(line.length).toBeLessThanOrEqual(60);
    expect(fitted.join(' ')).toContain('a conversation with a 9 s redelivery series takes');
    expect(fitted).toContain(
      '  $ svc-cli replay my-flows/ --integrator-url http://127.0.0.1:9000 --reporter junit --out report.xml',
    );
    expect(fitted.slice(-3)).toEqual(['Exit codes:', '0 ok', '1 a conversation failed']);
    expect(fitted).toContain('');
  });

  it('gives a word longer than the width a line of its own', () => {
    expect(
      fitHelpText(`${'see '.repeat(15)}https://example.invalid/${'x'.repeat(70)} now`, 40)
        .split('\n')
        .some((l) => l.startsWith('https://')),
    ).toBe(true);
  });
});

describe('fitHelpText on indented lists', () => {
  it('re-wraps a definition list entry under its own text, and keeps a table as written', () => {
    const text =
      'Suites:\n' +
      '  integrator  we play the platform: every agent message kind (text, typein/typeout, each\n' +
      '              media type of spec 2.4) with Content-Length and chunked bodies.\n' +
      '  hooks       we play the platform: every hook event.\n' +
      '  channel  /channel/...     -> --platform-url     your app posts customer messages here (spec 4.1)\n' +
      '           /integrator/...  -> --integrator-url   put this URL in the settings (spec 4.2)';
    const lines = fitHelpText(text, 60).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Suites:',
      '  integrator  we play the platform: every agent message kind',
      '              (text, typein/typeout, each media type of spec',
      '              2.4) with Content-Length and chunked bodies.',
    ]);
    expect(lines[4]).toBe('  hooks       we play the platform: every hook event.');
    expect(lines.slice(5)).toEqual(text.split('\n').slice(4));
  });
});

describe('helpWidth', () => {
  it('is the terminal width (at most 100), and 80 for a pipe or a narrow or unknown one', () => {
    expect(helpWidth({ isTTY: true, columns: 120 })).toBe(100);
    expect(helpWidth({ isTTY: true, columns: 72 })).toBe(72);
    expect(helpWidth({ isTTY: true, columns: 20 })).toBe(80);
    expect(helpWidth({ isTTY: false, columns: 120 })).toBe(80);
    expect(helpWidth({})).toBe(80);
  });
});
