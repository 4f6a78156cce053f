/**
 * The volume tests run at a size that proves the behaviour in `npm test`, and at full size in
 * `npm run test:slow` (SVC_TEST_FULL=1, which `.ci/run` runs too).
 */
export const FULL_SIZE = process.env.SVC_TEST_FULL === '1';

/** `quick` in `npm test`, `full` in `npm run test:slow`. */
export function sized(quick: number, full: number): number {
  return FULL_SIZE ? full : quick;
}
