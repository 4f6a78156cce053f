import type { Clock } from '../../clock.js';
import { getText } from '../../http/client.js';

/**
 * `chat --channel-url` at an svc-cli platform: whether it delivers the agent's replies to this
 * chat. A platform started without --integrator-url answered every message 200 and no reply
 * ever came. Asks `GET /_sim/state` (svc-cli only; any other platform, or one wanting a control
 * token, says nothing) and returns a warning, or undefined.
 * @example await platformDeliveryWarning(channelUrl, 'http://127.0.0.1:41234', clock, true)
 */
export async function platformDeliveryWarning(
  channelUrl: string,
  listenerUrl: string,
  clock: Clock,
  /** chat's --port was 0: its URL changes each time chat starts */
  randomPort = false,
): Promise<string | undefined> {
  const given = new URL(channelUrl);
  const outcome = await getText({ url: `${given.origin}/_sim/state`, timeoutMs: 2000, clock });
  if (!outcome.ok || outcome.status !== 200) return undefined;
  let channels: unknown;
  try {
    channels = (JSON.parse(outcome.body) as { channels?: unknown }).channels;
  } catch {
    return undefined;
  }
  if (!Array.isArray(channels)) return undefined;
  const id = given.pathname.split('/').filter(Boolean).at(-1);
  const channel = (channels as { id?: unknown; integratorUrl?: unknown }[]).find(
    (c) => c.id === id,
  );
  if (!channel) return undefined;
  // a URL at a free port is good only until chat restarts: the platform would keep the old one
  const fix = randomPort
    ? `start chat with a fixed port (svc-cli chat --port 9000 --channel-url ...) and the platform with --integrator-url http://127.0.0.1:9000 to get the agent's replies here; this chat's port (${new URL(listenerUrl).port}) is picked at random and changes each time chat starts`
    : `start it with --integrator-url ${listenerUrl} to get the agent's replies here`;
  if (typeof channel.integratorUrl !== 'string')
    return `the svc-cli platform at ${given.origin} has no integrator URL for channel ${String(id)}: it accepts your messages (200) but delivers the agent's replies nowhere; ${fix}`;
  if (new URL(channel.integratorUrl).origin !== new URL(listenerUrl).origin)
    return `the svc-cli platform at ${given.origin} delivers channel ${String(id)}'s agent replies to ${channel.integratorUrl}, not to this chat; ${fix}`;
  return undefined;
}
