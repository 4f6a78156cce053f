import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../../src/cli/render/color.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };
const on = (env: Record<string, string>, stream = tty) => colorEnabled({ env }, stream);

describe('colour: a TTY, unless TERM=dumb, NO_COLOR or FORCE_COLOR says otherwise', () => {
  it('a terminal gets colour, a pipe none', () => {
    expect([on({}), on({}, pipe)]).toEqual([true, false]);
  });

  it('TERM=dumb turns it off on a terminal, unless FORCE_COLOR asks for it', () => {
    expect(on({ TERM: 'dumb' })).toBe(false);
    expect(on({ TERM: 'xterm-256color' })).toBe(true);
    expect(on({ TERM: 'dumb', FORCE_COLOR: '1' })).toBe(true);
  });

  it('NO_COLOR turns it off, even with FORCE_COLOR', () => {
    expect(on({ NO_COLOR: '1' })).toBe(false);
    expect(on({ NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
  });

  it('FORCE_COLOR=0 (or false) turns it off on a terminal, as Node and chalk read it', () => {
    expect(on({ FORCE_COLOR: '0' })).toBe(false);
    expect(on({ FORCE_COLOR: 'false' })).toBe(false);
  });

  it('FORCE_COLOR=1 (or empty, or a level) turns it on in a pipe', () => {
    expect([on({ FORCE_COLOR: '1' }, pipe), on({ FORCE_COLOR: '' }, pipe)]).toEqual([true, true]);
    expect(on({ FORCE_COLOR: '3' }, pipe)).toBe(true);
  });
});
