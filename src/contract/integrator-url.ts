/**
 * spec 4.2: agent messages go to `{integrator_url}/{channel_public_id}`. The id is a path
 * segment of the integrator's URL: appended to its path (trailing slashes dropped), with a
 * query or fragment the integrator put on its URL kept after it (`.../agent?key=1` delivers to
 * `.../agent/shop?key=1`, not `.../agent?key=1/shop`, which names no channel).
 */
export function integratorDeliveryUrl(base: string, channelId: string): string {
  const cut = base.search(/[?#]/);
  const path = cut === -1 ? base : base.slice(0, cut);
  const rest = cut === -1 ? '' : base.slice(cut);
  return `${path.replace(/\/+$/, '')}/${encodeURIComponent(channelId)}${rest}`;
}
