/**
 * A HAR entry svc-cli did not write (a browser's DevTools, Charles, mitmproxy): no `_svc`
 * extras, no comment naming the interface. Its interface, direction and kind are read from
 * its URL, method and body the way the platform classifies what it receives (detectKind):
 * an agent message (`recipient`) is the platform's to the integrator, a bot event its own
 * by the registry's direction, a `GET .../status` the integrator's status read (spec 4.1).
 */
import { detectKind } from '../../contract/detect.js';
import { KINDS, producerOf } from '../../contract/registry.js';
import type { ExchangeRecord } from '../../journal/record.js';
import type { ForeignPlace } from '../../journal/har-read.js';

/** The interfaces a foreign entry can be placed on (the widget's own traffic is not read). */
const IFACES: ReadonlySet<string> = new Set(['channel', 'bot', 'hook']);

/**
 * The place of one request: the simulator's control API, a status read, or a payload of the
 * contract by its body; undefined for the rest (a page's scripts, images, analytics).
 * @example placeForeignEntry('POST', 'https://p/x/y', '{"recipient":{"id":"1"},"message":{"type":"text","text":"hi"}}') // { iface: 'channel', direction: 'out', kind: 'channel.agent.text' }
 */
export function placeForeignEntry(
  method: string,
  url: string,
  body: string | undefined,
): ForeignPlace | undefined {
  const path = pathOf(url);
  if (path.startsWith('/_sim/') || path === '/_sim') return { iface: 'control', direction: 'in' };
  const upper = method.toUpperCase();
  if ((upper === 'GET' || upper === 'HEAD') && /\/status\/?$/.test(path))
    return { iface: 'channel', direction: 'in', kind: 'channel.status' };
  if (body === undefined || body.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const detected = detectKind(value);
  const kind = 'kind' in detected ? detected.kind : undefined;
  const entry = kind === undefined ? undefined : KINDS.get(kind);
  const iface = kind?.split('.')[0];
  if (!entry || iface === undefined || !IFACES.has(iface)) return undefined;
  // as the platform records it: `out` what it sends, `in` what a party sends it
  const direction = producerOf(entry.direction) === 'platform' ? 'out' : 'in';
  return { iface: iface as ExchangeRecord['iface'], direction, kind: entry.name };
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}
