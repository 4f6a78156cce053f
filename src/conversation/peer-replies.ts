import { describeErrorPage } from '../http/error-page.js';
import type { Party } from './world.js';

/** How the report names each real peer (`realPeersOf` in world.ts), and where its reply is ruled. */
const PEERS: Partial<Record<Party, { phrase: string; spec: string }>> = {
  hook: { phrase: 'the hook receiver at', spec: '4.4' },
  integrator: { phrase: 'the integrator at', spec: '2.2' },
  bot: { phrase: 'the bot at', spec: '4.3' },
};

/** A reply body for one line: empty said so, an error page by its title, a long one cut. */
function quoted(reply: unknown): string {
  if (reply === undefined || reply === '') return '(empty body)';
  const text = typeof reply === 'string' ? reply : JSON.stringify(reply);
  const page = describeErrorPage(text);
  if (page !== undefined) return page;
  const flat = text.replace(/\s*[\r\n]\s*/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

/**
 * A warning for an expectation a real peer's payload met while the peer failed the request:
 * a hook receiver that threw on call_event (HTTP 500, nothing resent) left a replay green
 * with nothing said, since the expectation checks what was sent and not the reply. Nothing
 * when the expectation itself holds the reply (`$status`, `$reply`, `$failure`) or the party
 * is an embedded role.
 * @example peerReplyWarning(['the hook receiver at http://h/hooks'], 'hook', {}, { event_name: 'call_event', $status: 500 })
 */
export function peerReplyWarning(
  realPeers: readonly string[] | undefined,
  party: Party,
  expected: unknown,
  value: unknown,
): string[] {
  const peer = PEERS[party];
  if (peer === undefined || !realPeers?.some((p) => p.startsWith(peer.phrase))) return [];
  if (typeof value !== 'object' || value === null) return [];
  if (
    typeof expected === 'object' &&
    expected !== null &&
    ['$status', '$reply', '$failure'].some((key) => key in expected)
  )
    return [];
  const { $status, $failure, $reply, event_name, event } = value as Record<string, unknown>;
  const name =
    typeof event_name === 'string' ? event_name : typeof event === 'string' ? event : undefined;
  const what = name === undefined ? 'this request' : `this ${name}`;
  const answered =
    typeof $failure === 'string'
      ? `gave no answer to ${what} (${$failure})`
      : typeof $status === 'number' && ($status < 200 || $status > 299)
        ? `answered ${what} HTTP ${$status} ${quoted($reply)}`
        : undefined;
  if (answered === undefined) return [];
  return [
    `warning: ${party === 'hook' ? 'your hook receiver' : party === 'bot' ? 'your bot' : 'your integrator'} ${answered}; this expectation checks what was sent, not the reply ("$status": 200 in it would fail the step) (spec ${peer.spec})`,
  ];
}
