import { randomFillSync, randomUUID } from 'node:crypto';

export { secretEquals } from '../http/secret.js';

/**
 * CSPRNG bytes drawn a page at a time (as `randomUUID` buffers its own): one call to the
 * system's generator serves many channels, which the embedded world of `replay` opens one
 * per conversation.
 */
const pool = Buffer.alloc(4096);
let taken = pool.length;

/**
 * The channel URL's random string (spec 1.3, 5.1): 128 bits from the CSPRNG, base64url
 * (URL-safe, 22 characters). It protects the channel against brute force.
 */
export function createRandomString(bytes = 16): string {
  if (bytes > pool.length) return randomFillSync(Buffer.alloc(bytes)).toString('base64url');
  if (taken + bytes > pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const text = pool.toString('base64url', taken, taken + bytes);
  // each byte is handed out once
  pool.fill(0, taken, taken + bytes);
  taken += bytes;
  return text;
}

/** A platform message id (spec 2.2 message.id). */
export function createMessageId(): string {
  return randomUUID();
}
