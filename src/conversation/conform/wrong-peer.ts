import type { ObservedReply } from '../../http/client.js';
import { SVC_ROLE_HEADER, svcRoleOf } from '../../http/role-header.js';
import type { ConformCaseResult, ConformSuiteName } from './case.js';

/** A suite's URL that is another of svc-cli's serving roles. */
export interface WrongPeer {
  url: string;
  /** the svc-cli command that answered there, and what it plays */
  command: string;
  plays: string;
  /** what the suite tests, and the svc-cli command that plays it */
  wants: string;
  wantsCommand: string;
}

/** The svc-cli command that plays the peer each suite tests, and what that peer is. */
const WANTED: Readonly<Record<ConformSuiteName, [string, string]>> = {
  integrator: ['listen', 'an integrator endpoint (spec 4.2)'],
  hooks: ['hook-target', 'a hook receiver (spec 4.4)'],
  bot: ['bot-sim', 'a bot provider (spec 4.3)'],
  // svc-cli platform says no role: any role header is the wrong side
  platform: ['platform', 'a channel of the platform (spec 4.1)'],
};

/**
 * After a suite ran: whether the peer at `url` is another of svc-cli's serving roles (its
 * replies say which in `x-svc-role`), read off the replies the cases got (no request of its
 * own: a peer that never expected a GET must not get one).
 * @example findWrongPeer('hooks', url, replies)?.command // 'bot-sim'
 */
export function findWrongPeer(
  suite: ConformSuiteName,
  url: string,
  replies: readonly ObservedReply[],
): WrongPeer | undefined {
  const origin = new URL(url).origin;
  const reply = replies.find((r) => URL.canParse(r.url) && new URL(r.url).origin === origin);
  const role = reply && svcRoleOf(reply.headers);
  const [wantsCommand, wants] = WANTED[suite];
  if (!role || role.command === wantsCommand) return undefined;
  return { url, command: role.command, plays: role.plays, wants, wantsCommand };
}

/**
 * The failing case a run gets when its URL is another of svc-cli's serving roles, whether or
 * not the suite's cases passed: `listen` answers 200 to any POST, so `conform hooks` at it
 * passed every case and proved nothing about a hook receiver.
 * @example wrongPeerCase('hooks', peer).ok // false
 */
export function wrongPeerCase(suite: ConformSuiteName, peer: WrongPeer): ConformCaseResult {
  const detail = `${peer.url} is svc-cli ${peer.command} (${peer.plays}), not ${peer.wants}: its replies' ${SVC_ROLE_HEADER} header says so`;
  return {
    suite,
    name: `the URL is ${peer.wants}`,
    file: 'x-svc-role',
    spec: [],
    ok: false,
    steps: [
      {
        index: 0,
        name: `${SVC_ROLE_HEADER}: ${peer.command}`,
        kind: 'expect',
        status: 'failed',
        details: [detail],
        protocolMs: 0,
        wallMs: 0,
      },
    ],
    protocolMs: 0,
    wallMs: 0,
  };
}
