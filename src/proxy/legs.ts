/**
 * The legs of `svc-cli proxy`: for each interface, which path prefix on the proxy
 * forwards to which real party, who calls and who answers, the contract direction of the
 * request, what the answer is judged as, and the spec's budget and redelivery policy.
 */
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  type DeliveryPolicy,
} from '../contract/timing.js';
import type { ExchangeRecord } from '../journal/index.js';

export const PROXY_INTERFACES = ['channel', 'bot', 'hooks'] as const;
export type ProxyInterface = (typeof PROXY_INTERFACES)[number];

/** The real party a leg forwards to. */
export type LegName = 'platform' | 'integrator' | 'provider' | 'receiver';

export interface LegSpec {
  name: LegName;
  /** the path prefix on the proxy: `/integrator/<id>` -> `<upstream>/<id>` */
  prefix: string;
  /** who sends the requests and who answers them */
  caller: string;
  answerer: string;
  /** the registry direction every request kind of this leg must have */
  requestDirection: string;
  /** how the answer is judged: its kind from the request's, or undefined (status only) */
  answerKind: (requestKind: string, status: number) => string | undefined;
  /** the journal's view, as the platform would record the exchange */
  iface: ExchangeRecord['iface'];
  direction: 'in' | 'out';
  /** the platform's delivery policy when the platform is the caller (budget, attempts, gap) */
  policy?: DeliveryPolicy;
  /** the spec section of the budget, for the lines that cite it */
  budgetSpec?: string;
}

/** `offline_messages` is the reply of the `offline_message` event (spec 6.2 spells both). */
const hookReplyKind = (requestKind: string): string =>
  `${requestKind.replace('offline_messages', 'offline_message')}.reply`;

const LEGS: Record<LegName, LegSpec> = {
  platform: {
    name: 'platform',
    prefix: '/channel',
    caller: 'integrator',
    answerer: 'platform',
    requestDirection: 'integrator -> platform',
    // spec 4.1: 200 on success, 404 for an unknown public id; the status body is 0 or 1, and a
    // 404's body is the platform's own (not a status to hold to 0 or 1)
    answerKind: (kind, status) =>
      kind === 'channel.status' && status !== 404 ? 'channel.status' : undefined,
    iface: 'channel',
    direction: 'in',
  },
  integrator: {
    name: 'integrator',
    prefix: '/integrator',
    caller: 'platform',
    answerer: 'integrator',
    requestDirection: 'platform -> integrator',
    answerKind: (_kind, status) => (status === 200 ? 'channel.integrator.reply' : undefined),
    iface: 'channel',
    direction: 'out',
    policy: CHANNEL_DELIVERY_POLICY,
    budgetSpec: '8',
  },
  provider: {
    name: 'provider',
    prefix: '/provider',
    caller: 'platform',
    answerer: 'bot provider',
    requestDirection: 'platform -> bot',
    // spec 4.3: a regular answer (200); its body is not specified
    answerKind: () => undefined,
    iface: 'bot',
    direction: 'out',
    policy: BOT_DELIVERY_POLICY,
    budgetSpec: '8',
  },
  receiver: {
    name: 'receiver',
    prefix: '/hooks',
    caller: 'platform',
    answerer: 'hook receiver',
    requestDirection: 'platform -> hook receiver',
    answerKind: (kind, status) =>
      status === 200 && kind.startsWith('hook.') ? hookReplyKind(kind) : undefined,
    iface: 'hook',
    direction: 'out',
    policy: HOOK_DELIVERY_POLICY,
    budgetSpec: '8 (assumed: the spec shows no hook timeout)',
  },
};

/** The provider's events to the platform's bot service (spec 4.3): 200, or a code of 7.2. */
const BOT_SERVICE_LEG: LegSpec = {
  name: 'platform',
  prefix: '/platform',
  caller: 'bot provider',
  answerer: 'platform',
  requestDirection: 'bot -> platform',
  answerKind: (_kind, status) => (status === 200 ? undefined : 'bot.error'),
  iface: 'bot',
  direction: 'in',
};

/** The legs of an interface, in the order the banner lists them. */
export function legsOf(iface: ProxyInterface): readonly LegSpec[] {
  switch (iface) {
    case 'channel':
      return [LEGS.platform, LEGS.integrator];
    case 'bot':
      return [BOT_SERVICE_LEG, LEGS.provider];
    case 'hooks':
      return [LEGS.receiver];
  }
}

/**
 * The leg faults apply to by default: the one the platform calls, so a user watches the
 * real platform redeliver or time out.
 */
export function defaultFaultLeg(iface: ProxyInterface): LegName {
  return iface === 'channel' ? 'integrator' : iface === 'bot' ? 'provider' : 'receiver';
}
