/**
 * How many chats the platform behind a channel URL keeps open, when it says: svc-cli's
 * simulator answers `chatLimits.maxChats` in `GET /_sim/state`. A load run with more customers
 * than that churns their chats (each new one closes the oldest), which its own figures cannot
 * show: every message is still answered 200. A real platform has no such route; then nothing
 * is known and nothing is claimed.
 */
import type { Clock } from '../clock.js';
import { getText } from '../http/client.js';

export interface ChatCapOptions {
  /** the channel URL, `<base>/<random_string>/<channel_public_id>` (spec 4.1) */
  channelUrl: string;
  clock: Clock;
  signal?: AbortSignal;
}

/**
 * The simulator's `--max-chats`, or undefined when the target does not say (not svc-cli's
 * simulator, a control token, no limit, no answer within 2 s).
 * @example await readChatCap({ channelUrl, clock }) // 1000
 */
export async function readChatCap(options: ChatCapOptions): Promise<number | undefined> {
  const url = new URL(options.channelUrl);
  // the simulator serves /_sim/ beside its channels: drop <random_string>/<channel_public_id>
  url.pathname = `${url.pathname.replace(/\/+$/, '').split('/').slice(0, -2).join('/')}/_sim/state`;
  url.search = '';
  const outcome = await getText({
    url: url.href,
    timeoutMs: 2000,
    clock: options.clock,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!outcome.ok || outcome.status !== 200) return undefined;
  try {
    const state = JSON.parse(outcome.body) as { chatLimits?: { maxChats?: unknown } };
    const cap = state.chatLimits?.maxChats;
    return typeof cap === 'number' && Number.isInteger(cap) && cap > 0 ? cap : undefined;
  } catch {
    return undefined;
  }
}
