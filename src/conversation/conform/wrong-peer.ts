import type { ObservedReply } from '../../http/client.js';
import { svcRoleOf } from '../../http/role-header.js';
import type { ConformSuiteName } from './case.js';

/** The svc-cli command that plays the peer each suite tests, and what that peer is. */
const WANTED: Readonly<Record<Exclude<ConformSuiteName, 'platform'>, [string, string]>> = {
  integrator: ['listen', 'an integrator endpoint (spec 4.2)'],
  hooks: ['hook-target', 'a hook receiver (spec 4.4)'],
  bot: ['bot-sim', 'a bot provider (spec 4.3)'],
};

/**
 * After a suite failed: whether the peer at `url` is another of svc-cli's serving roles (its
 * replies say which in `x-svc-role`), read off the replies the cases got (no request of its
 * own: a peer that never expected a GET must not get one), and if so a sentence saying so.
 * @example describeWrongPeer('hooks', url, replies) // '... is svc-cli bot-sim (it plays ...'
 */
export function describeWrongPeer(
  suite: ConformSuiteName,
  url: string,
  replies: readonly ObservedReply[],
): string | undefined {
  if (suite === 'platform') return undefined;
  const origin = new URL(url).origin;
  const reply = replies.find((r) => URL.canParse(r.url) && new URL(r.url).origin === origin);
  const role = reply && svcRoleOf(reply.headers);
  const [command, what] = WANTED[suite];
  if (!role || role.command === command) return undefined;
  return `${url} is svc-cli ${role.command} (${role.plays}); conform ${suite} tests ${what}, such as svc-cli ${command}.`;
}
