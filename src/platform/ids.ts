import { randomBytes, randomUUID } from 'node:crypto';

export { secretEquals } from '../http/secret.js';

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
