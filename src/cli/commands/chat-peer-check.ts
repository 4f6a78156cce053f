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
  /** a channel URL as this chat shows it (its random string hidden without --show-secrets) */
  shown: (url: string) => string = (url) => url,
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
  const known = channels as { id?: unknown; url?: unknown; integratorUrl?: unknown }[];
  const channel = known.find((c) => c.id === id);
  // a URL the platform serves no channel at: every message would meet a 404 (spec 4.1); said
  // before the first one, with the URL it does serve (its banner printed it, on loopback)
  const wrong = wrongChannel(given, channel, known, shown);
  if (wrong !== undefined) return `the svc-cli platform at ${given.origin} ${wrong}`;
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

/**
 * What is wrong with a channel URL the platform's state does not hold: its channel id, or the
 * random string before it (spec 4.1: both or a 404); undefined when it holds it.
 */
function wrongChannel(
  given: URL,
  channel: { url?: unknown } | undefined,
  known: readonly { id?: unknown; url?: unknown }[],
  shown: (url: string) => string,
): string | undefined {
  const urls = known.map((c) => c.url).filter((u): u is string => typeof u === 'string');
  const pathOf = (url: string): string => new URL(url).pathname.replace(/\/+$/, '');
  const served = (list: readonly string[]): string => {
    const hidden = list.some((url) => shown(url) !== url)
      ? " (the platform's banner prints it whole, as --show-secrets does here)"
      : '';
    const all = list.map(shown);
    return `${all.length === 1 ? `its channel URL is ${all[0]}` : `its channel URLs are ${all.join(', ')}`}${hidden}`;
  };
  if (channel === undefined)
    return urls.length === 0
      ? undefined
      : `has no channel ${JSON.stringify(given.pathname.split('/').filter(Boolean).at(-1) ?? '')}: every message would be answered 404; ${served(urls)}`;
  if (typeof channel.url !== 'string' || pathOf(channel.url) === given.pathname.replace(/\/+$/, ''))
    return undefined;
  return `serves this channel at another random string: every message would be answered 404; ${served([channel.url])}`;
}
