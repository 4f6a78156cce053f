import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * The channel URL's random string (spec 1.3, 5.1): 128 bits from the CSPRNG, base64url
 * (URL-safe, 22 characters). It protects the channel against brute force.
 */
export function createRandomString(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/** A platform message id (spec 2.2 message.id). */
export function createMessageId(): string {
  return randomUUID();
}

/** Compares secrets (random strings, tokens) in constant time (issue 8). */
export function secretEquals(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left); // spend comparable time on a length mismatch
    return false;
  }
  return timingSafeEqual(left, right);
}
