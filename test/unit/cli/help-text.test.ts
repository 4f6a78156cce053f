/** `--help`'s closing text fitted to the terminal (src/cli/help-text.ts). */
import { describe, expect, it } from 'vitest';
import { fitExample, fitHelpText, helpWidth } from '../../../src/cli/help-text.js';

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
  it('re-wraps written prose at the width, breaks a wide example between its flags, and keeps short lines as written', () => {
    const fitted = fitHelpText(prose, 60).split('\n');
    for (const line of fitted) expect(line.length).toBeLessThanOrEqual(60);
    expect(fitted.join(' ')).toContain('a conversation with a 9 s redelivery series takes');
    // pasted into a shell, the continued lines are the one command
    expect(fitted).toEqual(
      expect.arrayContaining([
        '  $ svc-cli replay my-flows/ \\',
        '      --integrator-url http://127.0.0.1:9000 \\',
        '      --reporter junit --out report.xml',
      ]),
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

describe('fitExample', () => {
  /** The words of a command as the shell reads the lines (continuations joined). */
  const joined = (lines: string[]): string =>
    lines
      .filter((l) => !/^\s*#/.test(l))
      .join('\n')
      .replace(/ \\\n\s*/g, ' ')
      .replace(/^\s*\$ /, '');

  it.each([
    '  $ svc-cli conform bot --url http://127.0.0.1:7000/bot --token t0k --text "I want to book a table" --text menu',
    "  $ svc-cli load integrator --url http://127.0.0.1:9000/agent-messages --threshold 'p99<500ms' --export locust > locustfile.py",
    '  $ svc-cli --time-scale 0.2 platform --port 8800 --channel-id shop --random-string dev-only-secret-1234 --no-console &',
  ])('breaks %s between its words, each line within 60, and reads back the same', (line) => {
    const lines = fitExample(line, 60);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
    expect(joined(lines)).toBe(line.replace(/^\s*\$ /, ''));
    // a quoted value, a redirection and a flag's value stay with what they belong to
    expect(lines.join('\n')).not.toMatch(/"I want \\|> \\|--token \\|--port \\/);
  });

  it('gives up the padding before a comment first, else puts the comment on a line above', () => {
    expect(
      fitExample(`  $ svc-cli replay${' '.repeat(40)}# every bundled conversation`, 60),
    ).toEqual(['  $ svc-cli replay  # every bundled conversation']);
    expect(
      fitExample(
        '  $ svc-cli conform integrator --url http://127.0.0.1:9000/agent-messages --profile real.profile.json   # as the recorded platform sends',
        80,
      ),
    ).toEqual([
      '  # as the recorded platform sends',
      '  $ svc-cli conform integrator --url http://127.0.0.1:9000/agent-messages \\',
      '      --profile real.profile.json',
    ]);
  });

  it('keeps the continuation of a command written on several lines', () => {
    const lines = fitExample(
      '  $ svc-cli proxy channel --platform-url https://x.example/r/id --integrator-url http://127.0.0.1:9000/agent-messages \\',
      64,
    );
    expect(lines.at(-1)).toMatch(/ \\$/);
    const rest = fitHelpText(
      `Examples:\n${lines.join('\n')}\n      --port 8443 --tls --record staging.ndjson --fail-on-violation --no-invariant transcript`,
      64,
    ).split('\n');
    for (const l of rest) expect(l.length).toBeLessThanOrEqual(64);
    expect(rest.at(-1)).toMatch(/^ {6}--/);
  });
});

describe('fitHelpText on a wide table row', () => {
  it('wraps its last column under itself', () => {
    const row =
      '  channel  /channel/...     -> --platform-url     your app posts customer messages here (spec 4.1)';
    const fitted = fitHelpText(`Routes:\n${row}`, 80).split('\n');
    expect(fitted.slice(1)).toEqual([
      '  channel  /channel/...     -> --platform-url     your app posts customer',
      '                                                  messages here (spec 4.1)',
    ]);
  });
});
