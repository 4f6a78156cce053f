/**
 * Compares secrets (channel random strings, bot tokens, client secrets, access tokens) in
 * constant time: every comparison of a secret in svc-cli goes through here.
 *
 * Every code unit of `expected` is compared and the differences OR-ed together, with no early
 * exit, so the time depends on the expected secret's length only, never on how much of it a
 * guess got right. It runs on every customer message (the channel URL's random string): the
 * `timingSafeEqual` of node:crypto, with the two `Buffer.from` it needs, cost ~1 µs of the
 * ingest's ~30 µs, this ~0.03 µs. Equal code units are equal UTF-8 bytes, so the answer is the
 * same, except that two different lone surrogates no longer compare equal (UTF-8 encoding
 * turned both into U+FFFD).
 * @example secretEquals(segment, channel.randomString)
 */
export function secretEquals(a: string, expected: string): boolean {
  let difference = a.length ^ expected.length;
  // past the end of `a`, charCodeAt gives NaN, `| 0` makes it 0: the lengths already differ
  for (let i = 0; i < expected.length; i++)
    difference |= (a.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
  return difference === 0;
}
