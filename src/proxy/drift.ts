/**
 * `proxy --profile`: live traffic held to what a profile learned of each payload kind. What
 * the platform sends (its requests) is checked against the field forms the profile saw; what
 * it answers a peer, against the statuses the profile saw. A departure means the real
 * platform changed since the profile was learned. Plain data in, lines out: the proxy judges
 * by the contract and the profile, never by the simulator.
 */
import { formOf } from '../contract/value-form.js';

/** What a profile says of one payload kind (the profile format's `kinds` entry). */
export interface KindProfile {
  observations: number;
  statuses: Record<string, number>;
  /** JSON path -> value form -> count */
  fields: Record<string, Record<string, number>>;
}

const MAX_DEPTH = 8;
const MAX_LINES = 10;

/** `number x3, string x1` */
const seen = (tally: Record<string, number>): string =>
  Object.entries(tally)
    .sort((x, y) => y[1] - x[1])
    .map(([form, n]) => `${form} x${n}`)
    .join(', ');

function walk(
  value: unknown,
  path: string,
  key: string,
  kind: KindProfile,
  out: string[],
  depth: number,
): void {
  if (out.length >= MAX_LINES) return;
  if (path !== '') {
    const tally = kind.fields[path];
    const form = formOf(value, key);
    if (!tally) {
      // an observed kind's field list is complete: a field it never had is new
      if (kind.observations > 0) out.push(`${path}: not in the profile (${form})`);
      return;
    }
    if (!(form in tally)) out.push(`${path}: ${form}, the profile saw ${seen(tally)}`);
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 20)) walk(item, `${path}[]`, key, kind, out, depth + 1);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const k in object)
    walk(object[k], path === '' ? k : `${path}.${k}`, k, kind, out, depth + 1);
}

/** The paths a body has (arrays not entered), and those holding an object (`''`: the body). */
function presence(
  value: unknown,
  path: string,
  present: Set<string>,
  objects: Set<string>,
  depth: number,
): void {
  if (path !== '') present.add(path);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  objects.add(path);
  if (depth >= MAX_DEPTH) return;
  const object = value as Record<string, unknown>;
  for (const k in object)
    presence(object[k], path === '' ? k : `${path}.${k}`, present, objects, depth + 1);
}

/**
 * The fields the profile saw in every exchange of the kind that the body lacks: the top of a
 * missing subtree only (its parent is there, as an object), as `record diff` says it. Fields
 * under an array are left out: their counts are of items, not of exchanges.
 */
function missingFields(kind: KindProfile, json: unknown, out: string[]): void {
  if (kind.observations === 0) return;
  const present = new Set<string>();
  const objects = new Set<string>();
  presence(json, '', present, objects, 0);
  for (const [path, tally] of Object.entries(kind.fields)) {
    if (out.length >= MAX_LINES) return;
    if (path.includes('[]') || present.has(path)) continue;
    const total = Object.values(tally).reduce((sum, n) => sum + n, 0);
    if (total < kind.observations) continue;
    const dot = path.lastIndexOf('.');
    if (!objects.has(dot < 0 ? '' : path.slice(0, dot))) continue;
    out.push(
      `${path}: absent, the profile saw it in ${total} of ${kind.observations} (${seen(tally)})`,
    );
  }
}

/**
 * How a body the platform sent departs from the profile's forms for its kind: a form it never
 * saw, a field it never saw, a field it saw in every exchange now absent (at most 10 lines;
 * none when the kind is not in the profile or the body is not JSON).
 * @example sentDepartures({ observations: 3, statuses: {}, fields: { chat_id: { number: 3 } } }, '{"chat_id":"7"}') // ['chat_id: numeric string, the profile saw number x3']
 */
export function sentDepartures(kind: KindProfile | undefined, body: string): string[] {
  if (!kind) return [];
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [];
  }
  const out: string[] = [];
  walk(json, '', '', kind, out, 0);
  missingFields(kind, json, out);
  return out;
}

/**
 * The platform's answer status to a peer's payload, when the profile never saw it.
 * @example answerDepartures({ observations: 4, statuses: { '200': 4 }, fields: {} }, 202) // ['status 202: the profile saw 200 x4']
 */
export function answerDepartures(kind: KindProfile | undefined, status: number | undefined) {
  if (!kind || status === undefined || kind.observations === 0) return [];
  if (String(status) in kind.statuses) return [];
  return [`status ${status}: the profile saw ${seen(kind.statuses)}`];
}
