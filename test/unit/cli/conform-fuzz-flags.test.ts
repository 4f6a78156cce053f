import { describe, expect, it } from 'vitest';
import {
  checkFuzzPath,
  fuzzSettingsOf,
  interruptedNote,
} from '../../../src/cli/commands/conform-run.js';

type Flags = Parameters<typeof fuzzSettingsOf>[1];
const flagsOf = (given: Partial<Flags>): Flags =>
  ({ fuzzChanges: 2, fuzzStateful: false, ...given }) as Flags;
const none = { onCase: () => undefined, onCaseDone: () => undefined };

describe('conform --fuzz flags', () => {
  it('takes a --fuzz-path a run printed, with the seed of that run', () => {
    expect(() => checkFuzzPath(flagsOf({}))).not.toThrow();
    expect(() => checkFuzzPath(flagsOf({ fuzz: 300, seed: 7, fuzzPath: '41:0:2' }))).not.toThrow();
    expect(() => checkFuzzPath(flagsOf({ fuzz: 300, seed: 7, fuzzPath: '41-0' }))).toThrow(
      'Could not use --fuzz-path "41-0": it is the path a failing run printed, numbers joined by colons.',
    );
    expect(() => checkFuzzPath(flagsOf({ fuzz: 300, fuzzPath: '41:0:2' }))).toThrow(
      'Could not use --fuzz-path without --seed: the path names a case of one seeded run.',
    );
  });

  it('fuzzes only with --fuzz or --fuzz-time; --seed alone is a flag error', () => {
    expect(fuzzSettingsOf({ cwd: '/w' } as never, flagsOf({}), none)).toBeUndefined();
    expect(() => fuzzSettingsOf({ cwd: '/w' } as never, flagsOf({ seed: 7 }), none)).toThrow(
      'Could not use --seed: it replays generated traffic, and no --fuzz is given.',
    );
    expect(() => fuzzSettingsOf({ cwd: '/w' } as never, flagsOf({ fuzzPath: '1' }), none)).toThrow(
      'Could not use --fuzz-path: it replays generated traffic, and no --fuzz is given.',
    );
    // no time for a case: it would pass having tried nothing
    expect(() => fuzzSettingsOf({ cwd: '/w' } as never, flagsOf({ fuzzTime: '0s' }), none)).toThrow(
      'Could not use --fuzz-time 0s: it leaves no time to generate a case.',
    );
  });

  it('turns the flags into the runner settings, --fuzz-time alone running as many as fit', () => {
    const settings = fuzzSettingsOf(
      { cwd: '/w' } as never,
      flagsOf({ fuzz: 300, seed: 7, fuzzTime: '10s', fuzzStateful: true }),
      none,
    );
    expect(settings).toMatchObject({
      runs: 300,
      cwd: '/w',
      stateful: true,
      timeLimitMs: 10_000,
      changes: 2,
      seed: 7,
    });
    expect(settings).not.toHaveProperty('path');
    expect(fuzzSettingsOf({ cwd: '/w' } as never, flagsOf({ fuzzTime: '2m' }), none)).toMatchObject(
      { runs: 1_000_000_000, timeLimitMs: 120_000 },
    );
  });

  it('says what an interrupted run finished: the generated cases of a fuzz run, else the cases', () => {
    expect(interruptedNote({ done: 3, failed: 1, skipped: 1 })).toBe(
      'interrupted: 3 cases finished: 1 passed, 1 failed, 1 skipped',
    );
    expect(
      interruptedNote({
        done: 0,
        failed: 0,
        skipped: 0,
        fuzz: { finished: 40, failed: 2, seed: 7 },
      }),
    ).toBe(
      'interrupted: 40 generated cases finished: 38 passed, 2 failed (seed 7; --fuzz 40 --seed 7 runs them again)',
    );
  });
});
