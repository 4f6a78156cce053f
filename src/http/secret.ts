import { timingSafeEqual } from 'node:crypto';

/**
 * The bytes of each secret compared lately, and a buffer of the same length for the string
 * it is compared with: a channel's random string is checked on every ingested message, and
 * two `Buffer.from` a request were a tenth of the channel handler's time under load. Few
 * secrets are compared in one process (channels, bot tokens, the control token); issued
 * access tokens come and go, so the memory starts over once it holds this many.
 */
const REMEMBERED = 32;
const remembered = new Map<string, readonly [expected: Buffer, given: Buffer]>();

function buffersOf(expected: string): readonly [Buffer, Buffer] {
  let pair = remembered.get(expected);
  if (pair === undefined) {
    const bytes = Buffer.from(expected);
    pair = [bytes, Buffer.alloc(bytes.length)];
    if (remembered.size >= REMEMBERED) remembered.clear();
    remembered.set(expected, pair);
  }
  return pair;
}

/**
 * Compares secrets (channel random strings, bot tokens, client secrets, access tokens) in
 * constant time: every comparison of a secret in svc-cli goes through here. Only the byte
 * length is compared first (a secret's length is no secret).
 * @example secretEquals(segment, channel.randomString)
 */
export function secretEquals(a: string, expected: string): boolean {
  const [right, left] = buffersOf(expected);
  if (Buffer.byteLength(a) !== right.length) {
    timingSafeEqual(right, right); // spend comparable time on a length mismatch
    return false;
  }
  // the given string's bytes, written over the last ones (same length: all of them)
  left.write(a);
  return timingSafeEqual(left, right);
}
