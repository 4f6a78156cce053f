import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatStep, formatSummary } from '../../../src/cli/render/reporters/pretty.js';

const c = new Chalk({ level: 0 });
const step = (status: 'passed' | 'failed', details: string[]) => ({
  index: 0,
  name: 'is refused with a 4xx (spec 7.2)',
  kind: 'expect' as const,
  status,
  details,
  protocolMs: 12,
  wallMs: 1,
});

describe('a check that passed with a warning', () => {
  it('is marked ! with its warning, never ✓', () => {
    expect(formatStep(step('passed', ['warning: answered HTTP 200 to a malformed event']), c))
      .toMatchInlineSnapshot(`
      "    ! is refused with a 4xx (spec 7.2) [0.012s]
              warning: answered HTTP 200 to a malformed event"
    `);
    expect(formatStep(step('passed', []), c)).toBe(
      '    ✓ is refused with a 4xx (spec 7.2) [0.012s]',
    );
  });
});

describe('a check that passed with a note of what it measured', () => {
  it('shows the note after the name, so the bracketed check time is not read as it', () => {
    expect(formatStep(step('passed', ['note: arrived at +3.004 s']), c)).toBe(
      '    ✓ is refused with a 4xx (spec 7.2): arrived at +3.004 s [0.012s]',
    );
  });
});

describe('a broken invariant', () => {
  it('points at the explanation of the invariant by its name, not at its section', () => {
    const broken = {
      ...step('failed', [
        'hook-after-finish (spec 6.2): #6 chat_assigned at 0.000 s went to the hook receiver after #4 chat_finished at 0.000 s [exchanges #4 and #6; --no-invariant hook-after-finish switches it off]',
      ]),
      name: 'invariants',
    };
    expect(formatStep(broken, c).split('\n').at(-1)).toBe(
      '        more: svc-cli explain hook-after-finish',
    );
  });
});

describe('the summary against a real peer', () => {
  const result = (expectations: { checked: number; skipped: number }) => ({
    name: 'from staging',
    ok: false,
    steps: [],
    protocolMs: 0,
    wallMs: 1,
    realPeers: ['the integrator'],
    expectations,
  });

  it('counts expectations only when the conversation has expect steps', () => {
    const none = formatSummary([result({ checked: 0, skipped: 0 })], c, 5);
    // a failed agent step with its own result and attempts read as "0 checked" before
    expect(none).not.toContain('expectations:');
    expect(none).toContain('the integrator is yours');
    expect(formatSummary([result({ checked: 2, skipped: 1 })], c, 5)).toContain(
      'expectations: 2 checked, 1 skipped (not observable)',
    );
  });
});

describe('a step with a name of its own', () => {
  const named = {
    ...step('passed', []),
    name: 'answer',
    what: 'agent says "Hi"',
    value: { result: 'delivered', note: 'x'.repeat(300) },
  };

  it('says what it does beside the name; --verbose adds what it gave, cut', () => {
    expect(formatStep(named, c)).toBe('    ✓ 1. answer (agent says "Hi") [0.012s]');
    const [head, value] = formatStep(named, c, { verbose: true }).split('\n');
    expect(head).toBe('    ✓ 1. answer (agent says "Hi") [0.012s]');
    expect(value).toMatch(/^ {8}→ \{"result":"delivered","note":"x+… \(332 characters\)$/);
    expect(value!.length).toBeLessThan(240);
  });

  it('carries its number in the fixture, as an unnamed step does, also when skipped', () => {
    // the third step of the fixture: a user counts to it, the name alone did not say where
    const third = { ...named, index: 2 };
    expect(formatStep(third, c)).toBe('    ✓ 3. answer (agent says "Hi") [0.012s]');
    expect(formatStep({ ...third, status: 'skipped' as const }, c)).toBe(
      '    - 3. answer [0.012s]',
    );
  });
});
