/**
 * How many cases each fuzz property runs, and how long it may take. `npm test` runs a bounded
 * number; `FC_RUNS=<n> npm run fuzz` any number, so a property's timeout follows the count
 * (about 5 ms a case on a quiet 2-core machine; 25 ms leaves room for a busy one).
 */
export const FC_RUNS = Number(process.env.FC_RUNS ?? 250);

const MS_PER_CASE = 25;

/** vitest's per-test timeout for a property of `FC_RUNS` cases. */
export function fuzzTimeoutMs(runs: number = FC_RUNS): number {
  return 20_000 + Math.ceil(runs * MS_PER_CASE);
}
