import type { WrongPeer } from '../../conversation/conform/wrong-peer.js';

/**
 * What a failed conform run says when its URL is another of svc-cli's roles.
 * @example formatWrongPeer('hooks', peer) // 'http://... is svc-cli bot-sim (it plays a bot provider, spec 4.3); ...'
 */
export function formatWrongPeer(suite: string, peer: WrongPeer): string {
  return `${peer.url} is svc-cli ${peer.command} (${peer.plays}); conform ${suite} tests ${peer.wants}, such as svc-cli ${peer.wantsCommand}.`;
}
