/**
 * The time column of every serving command's log: the wall-clock time of day, so
 * the windows of platform, bot-sim and listen line up, then protocol time since start (what
 * the platform's timers see; it runs faster than the wall under --time-scale).
 */

const two = (n: number): string => String(n).padStart(2, '0');

/** Local wall-clock time of day, `14:03:27.412`. */
export function timeOfDay(date = new Date()): string {
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** Protocol seconds, right-aligned: `   3.356s`. */
export const protocolSecs = (ms: number): string => `${(ms / 1000).toFixed(3)}s`.padStart(9);

/** The time column: `14:03:27.412    3.356s` (rendered as the event happens). */
export const stamp = (protocolMs: number): string => `${timeOfDay()} ${protocolSecs(protocolMs)}`;
