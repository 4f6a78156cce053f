/**
 * "Did you mean": the known names closest to a typed one, a name it begins first, then by edit
 * distance (Levenshtein, a swap of two neighbouring letters one edit), for unknown kinds, config
 * keys, fixture keys and choices alike.
 */

/**
 * Edit distance between two strings: insertions, deletions, substitutions, and two neighbouring
 * letters swapped as one edit (`reprot` is one edit from `report`: the commonest typo).
 */
export function editDistance(a: string, b: string): number {
  // three rows: the one before the previous is where a swap of two letters comes from
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/**
 * Whether `name` holds every letter of `typed` in order: `typed` is `name` with letters left
 * out, the likelier typo of two as many edits away (`ofline` is `offline` with an f left out,
 * not `online` with an n mistyped).
 */
function holdsInOrder(name: string, typed: string): boolean {
  let at = 0;
  for (const ch of name) if (ch === typed[at]) at++;
  return at === typed.length;
}

/**
 * Known names ordered by closeness to `name` (case-insensitive), at most `limit`: first those
 * that start with it (a name typed short: `plat` is `platform`, though `bot` is fewer edits
 * away), shortest first, then the rest by edit distance, none further than `maxDistance`; of
 * two as far, first the one `name` leaves letters out of.
 * @example closestNames('custmer', ['customer', 'agent']) // ['customer']
 * @example closestNames('plat', ['integrator', 'hooks', 'platform', 'bot']) // ['platform']
 */
export function closestNames(
  name: string,
  known: Iterable<string>,
  options: { limit?: number; maxDistance?: number } = {},
): string[] {
  const typed = name.toLowerCase();
  // a short word is not "close" to one it shares half its letters with: `nope` is not `port`
  // (3 edits of 4 letters)
  const max = Math.min(
    options.maxDistance ?? Number.POSITIVE_INFINITY,
    typed === '' ? Number.POSITIVE_INFINITY : Math.max(1, Math.ceil(typed.length / 2)),
  );
  return [...known]
    .map((k) => {
      const lower = k.toLowerCase();
      return {
        k,
        prefix: typed !== '' && lower.startsWith(typed),
        d: editDistance(typed, lower),
        letterLeftOut: holdsInOrder(lower, typed),
      };
    })
    .filter((s) => s.prefix || s.d <= max)
    .sort(
      (a, b) =>
        Number(b.prefix) - Number(a.prefix) ||
        a.d - b.d ||
        Number(b.letterLeftOut) - Number(a.letterLeftOut),
    )
    .slice(0, options.limit ?? 1)
    .map((s) => s.k);
}

/**
 * The allowed string a value at `path` of `input` was likely meant to be: one or two letters
 * (or a capital) away from it, as `"eror"` is from `"error"`; undefined when the value is no
 * string, is allowed already, or is near none.
 * @example nearAllowedValue({ call: { status: 'eror' } }, ['call', 'status'], ['start', 'error']) // 'error'
 */
export function nearAllowedValue(
  input: unknown,
  path: readonly PropertyKey[],
  allowed: readonly unknown[],
): string | undefined {
  let given = input;
  for (const key of path) {
    given =
      given !== null && typeof given === 'object'
        ? (given as Record<PropertyKey, unknown>)[key]
        : undefined;
  }
  if (typeof given !== 'string' || given === '') return undefined;
  const names = allowed.filter((v): v is string => typeof v === 'string');
  const [near] = closestNames(given, names, { limit: 1, maxDistance: 2 });
  return near === given ? undefined : near;
}
