/**
 * replay's summary says timing figures were compared within the real-time tolerance only when
 * a step compared one: a fixture made from a recording has none, and saying "matched" of
 * nothing (or of a failed run) misleads.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/cli/render/reporters/pretty.js';
import type { ConversationResult } from '../../../src/conversation/runner.js';

const c = new Chalk({ level: 0 });
const result = (ok: boolean, timingFigures: number): ConversationResult => ({
  name: 'from real.ndjson',
  ok,
  timingToleranceMs: 250,
  timingFigures,
  steps: [],
  wallMs: 5,
  protocolMs: 0,
});

describe('the real-time line of the replay summary', () => {
  it('is left out when no timing figure was compared', () => {
    expect(formatSummary([result(true, 0)], c, 5)).not.toContain('timing figure');
    expect(formatSummary([result(false, 0)], c, 5)).not.toContain('timing figure');
  });

  it('counts the figures compared, and says compared (not matched) whatever the outcome', () => {
    expect(formatSummary([result(true, 2), result(false, 1)], c, 5)).toMatchInlineSnapshot(`
      "
      2 conversations in 5 ms
      real time: 3 timing figures (elapsedMs ...) compared within ±250 protocol ms
      1 passed, 1 failed"
    `);
  });
});
