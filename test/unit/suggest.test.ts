import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from '../../src/suggest.js';

const SUITES = ['integrator', 'hooks', 'platform', 'bot'];

describe('closestNames: "did you mean"', () => {
  it('a name typed short is the name it begins, though another is fewer edits away', () => {
    // plat -> bot is 3 edits, plat -> platform 4, but only platform begins with it
    expect([editDistance('plat', 'bot'), editDistance('plat', 'platform')]).toEqual([3, 4]);
    expect(closestNames('plat', SUITES, { maxDistance: 3 })).toEqual(['platform']);
    expect(closestNames('int', SUITES, { maxDistance: 3 })).toEqual(['integrator']);
    expect(closestNames('ho', SUITES, { maxDistance: 3 })).toEqual(['hooks']);
    expect(closestNames('b', SUITES, { maxDistance: 3 })).toEqual(['bot']);
  });

  it('a prefix is matched without regard to case and past maxDistance', () => {
    expect(closestNames('PLAT', SUITES, { maxDistance: 1 })).toEqual(['platform']);
    expect(closestNames('integ', SUITES, { maxDistance: 0 })).toEqual(['integrator']);
  });

  it('of several names it begins, the shortest comes first; then the others by distance', () => {
    expect(closestNames('chan', ['channels', 'channel', 'chat'], { limit: 3 })).toEqual([
      'channel',
      'channels',
      'chat',
    ]);
  });

  it('typos still go by edit distance, within maxDistance', () => {
    expect(closestNames('integratr', SUITES, { maxDistance: 3 })).toEqual(['integrator']);
    expect(closestNames('hoks', SUITES, { maxDistance: 3 })).toEqual(['hooks']);
    expect(closestNames('platfrom', SUITES, { maxDistance: 3 })).toEqual(['platform']);
    expect(closestNames('custmer', ['customer', 'agent'])).toEqual(['customer']);
    expect(closestNames('zzzzzzzz', SUITES, { maxDistance: 3 })).toEqual([]);
  });

  it('of two names as many edits away, the one missing a letter of it comes first', () => {
    // ofline is one edit from online (f for n) and one from offline (an f left out): a
    // letter left out is the likelier typo, and offline is what was meant
    expect([editDistance('ofline', 'online'), editDistance('ofline', 'offline')]).toEqual([1, 1]);
    expect(closestNames('ofline', ['online', 'offline'])).toEqual(['offline']);
    expect(closestNames('onine', ['offline', 'online'])).toEqual(['online']);
    expect(closestNames('jnuit', ['junit', 'json'])).toEqual(['junit']);
  });

  it('two neighbouring letters swapped are one edit', () => {
    expect(editDistance('reprot', 'report')).toBe(1);
    expect(editDistance('reprot', 'reporter')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(closestNames('reprot', ['reporter', 'record'], { maxDistance: 3 })).toEqual([
      'reporter',
    ]);
  });

  it('an empty name begins every name, and is matched by distance alone', () => {
    expect(closestNames('', SUITES, { maxDistance: 2 })).toEqual([]);
    expect(closestNames('', SUITES, { maxDistance: 3 })).toEqual(['bot']);
  });
});

describe('closestNames: a short word', () => {
  it('is not close to a word it shares half its letters with', () => {
    // a config key `nope` was told "Did you mean port?"
    expect(closestNames('nope', ['port', 'host', 'delay'], { maxDistance: 3 })).toEqual([]);
    expect(closestNames('prot', ['port', 'host'], { maxDistance: 3 })).toEqual(['port']);
    expect(closestNames('grp', ['grep', 'bail'], { maxDistance: 3 })).toEqual(['grep']);
  });
});
