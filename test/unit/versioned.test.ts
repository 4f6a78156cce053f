import { describe, expect, it } from 'vitest';
import { versionProblem } from '../../src/versioned.js';

const kind = {
  shape: 'a thing is one JSON object with "version"',
  example: 'svc-cli init writes one',
};

describe('versionProblem', () => {
  it('is undefined for the supported version', () => {
    expect(versionProblem({ version: 1 }, 1, kind)).toBeUndefined();
  });

  it('says what the file is not: an array, null, a string', () => {
    expect(versionProblem([], 1, kind)).toEqual({
      about: 'shape',
      problem: 'it is a JSON array; a thing is one JSON object with "version"',
      hint: 'svc-cli init writes one.',
    });
    expect(versionProblem(null, 1, kind)?.problem).toMatch(/^it is JSON null; /);
    expect(versionProblem('x', 1, kind)?.problem).toMatch(/^it is a JSON string; /);
  });

  it('a missing version is added, not upgraded', () => {
    const p = versionProblem({ steps: [] }, 1, kind);
    expect(p?.problem).toBe('it has no "version"');
    expect(p?.hint).toBe('Add "version": 1. svc-cli init writes one.');
  });

  it('only a newer number asks for an upgrade', () => {
    expect(versionProblem({ version: 2 }, 1, kind)?.hint).toMatch(/^Upgrade svc-cli/);
    expect(versionProblem({ version: 0 }, 1, kind)?.hint).toBe('Set "version": 1 (a number).');
    expect(versionProblem({ version: '1' }, 1, kind)).toEqual({
      about: 'version',
      problem: '"version" is "1"; this svc-cli reads version 1',
      hint: 'Set "version": 1 (a number).',
    });
  });
});
