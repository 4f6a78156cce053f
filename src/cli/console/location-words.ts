/**
 * `/location <latitude> <longitude>` as the consoles read it: checked against send-location's
 * own flags, so a place `send-location` refuses is refused here too, in the same words.
 */
import { LATITUDE_OPTION, LONGITUDE_OPTION } from '../commands/send-options.js';
import { rangeProblem } from '../options/range.js';

export type LocationWords =
  { ok: true; latitude: number; longitude: number } | { ok: false; message: string };

const USAGE = '/location <latitude> <longitude>';

/**
 * @example parseLocationWords(['95', '10']) // { ok: false, message: 'Not sent: latitude "95" must be at most 90. /location <latitude> <longitude>' }
 */
export function parseLocationWords(words: readonly string[]): LocationWords {
  // a bare /location is asked for its words, as a bare /email is
  if (words.length === 0) return { ok: false, message: USAGE };
  const [lat, lon] = words.map(Number);
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    // which word was not a number ("/location abc 1" printed the usage alone)
    const problems = [
      [LATITUDE_OPTION.key, words[0]],
      [LONGITUDE_OPTION.key, words[1]],
    ]
      .map(([key, word]) =>
        word === undefined
          ? `no ${key} given`
          : Number.isFinite(Number(word))
            ? undefined
            : `${key} "${word}" is not a number`,
      )
      .filter((p) => p !== undefined);
    return { ok: false, message: `Not sent: ${problems.join('; ')}. ${USAGE}` };
  }
  for (const [spec, value, word] of [
    [LATITUDE_OPTION, lat, words[0]],
    [LONGITUDE_OPTION, lon, words[1]],
  ] as const) {
    const problem = rangeProblem(value, spec);
    if (problem !== undefined)
      return { ok: false, message: `Not sent: ${spec.key} "${word}" ${problem}. ${USAGE}` };
  }
  return { ok: true, latitude: lat, longitude: lon };
}
