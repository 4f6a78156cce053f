/**
 * Durations as every command's flags write them (`500ms`, `60s`, `2m`, `1h`): `--wait`,
 * `--timeout`, load's `--duration`, conform's `--fuzz-time`. Pure parsing; a value that is no
 * duration is an input error with a code that names no command.
 */
import { inputError } from './errors.js';

/**
 * A duration, also as the config file's JSON Schema pattern (which has no `i` flag): a number,
 * then ms, s, m, min or h in any case.
 */
export const DURATION_PATTERN =
  '^\\s*(\\d+(?:\\.\\d+)?)\\s*([mM][sS]|[sS]|[mM]|[mM][iI][nN]|[hH])?\\s*$';
const DURATION = new RegExp(DURATION_PATTERN);

/** What a duration's bare number counts: seconds for `--wait 5`, ms for `--timeout 500`. */
export type BareDurationUnit = 'ms' | 's';

/**
 * Milliseconds, or undefined when the text is no duration.
 * @example readDuration('10s', 'ms') // 10000
 * @example readDuration('250', 'ms') // 250
 */
export function readDuration(text: string, bare: BareDurationUnit): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? bare).toLowerCase();
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'h' ? 3_600_000 : 60_000;
  return value * factor;
}

/**
 * Milliseconds, from `500ms`, `60s`, `2m`, `1h`, or a bare number of seconds.
 * @example parseDuration('2m', '--wait') // 120000
 */
export function parseDuration(text: string, flag: string): number {
  const ms = readDuration(text, 's');
  if (ms === undefined) {
    throw inputError(
      'SVC_E_DURATION',
      `Could not read ${flag} "${text}": a duration is a number with ms, s, m or h.`,
      `For example ${flag} 60s or ${flag} 2m.`,
    );
  }
  return ms;
}
