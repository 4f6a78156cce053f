import { timingSafeEqual } from 'node:crypto';

/**
 * Compares secrets (channel random strings, bot tokens, client secrets, access tokens) in
 * constant time: every comparison of a secret in svc-cli goes through here.
 * @example secretEquals(segment, channel.randomString)
 */
export function secretEquals(a: string, expected: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(expected);
  if (left.length !== right.length) {
    timingSafeEqual(right, right); // spend comparable time on a length mismatch
    return false;
  }
  return timingSafeEqual(left, right);
}
