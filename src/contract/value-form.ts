/**
 * The form of a JSON value as a drift check cares about: its type, with numeric strings and
 * seconds / milliseconds timestamps told apart. `record diff` and `record profile` tally
 * them; the simulator under a profile sends the forms a profile learned.
 */
export type ValueForm =
  | 'null'
  | 'array'
  | 'object'
  | 'boolean'
  | 'string'
  | 'numeric string'
  | 'number'
  | 'number (ms timestamp)'
  | 'number (s timestamp)';

/** A key that names a point in time (`timestamp`, `created_at`, `ts` ...). */
export const TIME_KEY = /(^|_)(time|timestamp|date)$|_at$|^ts$/i;

/** Beyond this a unix time is in milliseconds (1e11 s is the year 5138). */
export const MS_TIMESTAMP_FLOOR = 1e11;

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * The form of a value under a key.
 * @example formOf('123', 'id') // 'numeric string'
 */
export function formOf(value: unknown, key: string): ValueForm {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return NUMERIC.test(value) ? 'numeric string' : 'string';
  if (typeof value === 'number') {
    if (TIME_KEY.test(key) && Number.isFinite(value) && value > 0)
      return value > MS_TIMESTAMP_FLOOR ? 'number (ms timestamp)' : 'number (s timestamp)';
    return 'number';
  }
  return typeof value === 'boolean' ? 'boolean' : 'object';
}
