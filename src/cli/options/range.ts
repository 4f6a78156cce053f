/** A number's range check, in the words every option check uses (flags, config, consoles). */

export interface NumberRange {
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: true;
}

/**
 * Why a number lies outside a range, or undefined when it lies inside.
 * @example rangeProblem(95, { min: -90, max: 90 }) // 'must be at most 90'
 */
export function rangeProblem(n: number, range: NumberRange): string | undefined {
  if (range.min !== undefined) {
    if (range.exclusiveMin && n <= range.min) return `must be greater than ${range.min}`;
    if (n < range.min) return `must be at least ${range.min}`;
  }
  if (range.max !== undefined && n > range.max) return `must be at most ${range.max}`;
  return undefined;
}
