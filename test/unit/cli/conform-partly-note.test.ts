/**
 * The conform summary's line for passes checked in part (src/cli/commands/conform-run.ts):
 * one such case reads "1 of the passed cases was", not "1 of the passed case was".
 */
import { describe, expect, it } from 'vitest';
import { partlyCheckedNote } from '../../../src/cli/commands/conform-run.js';

describe('partlyCheckedNote', () => {
  it('counts one case and several in plain English', () => {
    expect(partlyCheckedNote(1)).toMatchInlineSnapshot(
      `"1 of the passed cases was checked in part: a step marked - could not be observed on this peer"`,
    );
    expect(partlyCheckedNote(2)).toMatchInlineSnapshot(
      `"2 of the passed cases were checked in part: steps marked - could not be observed on this peer"`,
    );
  });
});
