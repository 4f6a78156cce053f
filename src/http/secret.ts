import { timingSafeEqual } from 'node:crypto';

/**
 * Compares secrets (channel random strings, bot tokens, client secrets, access tokens) in
 * constant time (issue 8): every comparison of a secret in svc-cli goes through here.
 * `expected` is the known secret: its bytes are encoded once and reused.
 * @example secretEquals(segment, channel.randomString)
 */
export function secretEquals(a: string, expected: string): boolean {
  const left = Buffer.from(a);
  const right = expectedBytes(expected);
  if (left.length !== right.length) {
    timingSafeEqual(right, right); // spend comparable time on a length mismatch
    return false;
  }
  return timingSafeEqual(left, right);
}

/** The bytes of the secrets compared against (a handful per process), encoded once. */
const encoded = new Map<string, Buffer>();

function expectedBytes(secret: string): Buffer {
  let bytes = encoded.get(secret);
  if (!bytes) {
    if (encoded.size >= 64) encoded.clear(); // bounded, whatever the caller compares
    bytes = Buffer.from(secret);
    encoded.set(secret, bytes);
  }
  return bytes;
}
