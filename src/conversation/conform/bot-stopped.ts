import { assertReachable } from '../../http/reach.js';

/** wall ms the one connection that asks whether the bot still listens may take */
const PROBE_MS = 1000;

/**
 * Whether the bot stopped: a request it refused the connection of, or closed without an answer,
 * and nothing accepts a connection at its URL any more. The suite found it listening before
 * the first case, so its process exited in between (a crash on an earlier event, most often).
 * @example await botStopped('http://127.0.0.1:9300/bot', { reason: 'refused' }) // true
 */
export async function botStopped(url: string, outcome: { reason: string }): Promise<boolean> {
  if (outcome.reason !== 'refused' && outcome.reason !== 'reset') return false;
  try {
    await assertReachable(url, 'the bot', { wallTimeoutMs: PROBE_MS });
    return false;
  } catch {
    return true;
  }
}

/**
 * What a case says of a bot that stopped before it could answer (its own words: a check
 * about the token or the event cannot be made of a process that is gone).
 */
export function botStoppedReason(event: string, url: string, message: string): string {
  const origin = new URL(url).origin;
  return `the bot stopped: ${event} got ${message}, and nothing accepts connections at ${origin} any more, where the bot answered earlier in this run. Its process exited (its log says why: an event it could not handle, such as the malformed one the case before sends); start it again and rerun`;
}
