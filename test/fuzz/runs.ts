/**
 * How many cases each fuzz property runs, and how long it may take. `npm test` runs a bounded
 * number; `FC_RUNS=<n> npm run fuzz` any number, so a property's timeout follows the count
 * (a few ms a case on a quiet 2-core machine; beside five other jobs 3,000 cases took more than
 * 95 s, so 100 ms a case: a guard against a hang, not a budget).
 */
export const FC_RUNS = Number(process.env.FC_RUNS ?? 250);

const MS_PER_CASE = 100;

/** vitest's per-test timeout for a property of `FC_RUNS` cases. */
export function fuzzTimeoutMs(runs: number = FC_RUNS): number {
  return 60_000 + Math.ceil(runs * MS_PER_CASE);
}
