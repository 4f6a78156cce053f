import { SvcError } from '../errors.js';
import { closestNames } from '../suggest.js';
import { INVARIANT_NAMES, type InvariantName } from './rules.js';

/*
 * The cross-interface invariants: the rules themselves are in src/trace/rules.ts (pure: the
 * web console bundles them for the browser); this module adds what only the CLI needs.
 */
export * from './rules.js';

/**
 * The names given to `--no-invariant`, checked: an unknown one is an input error naming the
 * known ones.
 */
export function checkInvariantNames(names: readonly string[]): InvariantName[] {
  const unknown = names.filter((n) => !(INVARIANT_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    // a typo (`transcripts`, `hook_after_finish`) names the rule it meant, as a mistyped flag
    // or command does
    const meant = unknown.flatMap((n) =>
      closestNames(n.replace(/_/g, '-'), INVARIANT_NAMES, { limit: 1, maxDistance: 3 }),
    );
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not switch off invariant ${unknown.map((n) => `"${n}"`).join(', ')}: no invariant by that name${meant.length > 0 ? ` (did you mean ${meant.join(', ')}?)` : ''}.`,
      `Known invariants: ${INVARIANT_NAMES.join(', ')}.`,
    );
  }
  return names as InvariantName[];
}
