/** The proxy's options, events and handle (`startProxy`, src/proxy/proxy.ts). */
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import type { ContractIssue } from '../contract/types.js';
import type { DeliveryPolicy } from '../contract/timing.js';
import type { FaultPlan } from '../faults/index.js';
import type { ServerLimits } from '../http/server.js';
import type { TlsServerOptions } from '../http/tls.js';
import type { Journal } from '../journal/index.js';
import type { InvariantOptions, Violation } from '../trace/invariants.js';
import type { KindProfile } from './drift.js';
import type { LegName, LegSpec, ProxyInterface } from './legs.js';
import type { AttemptInfo, SeriesOutcome } from './series.js';

export interface ProxyOptions {
  iface: ProxyInterface;
  /** the real party behind each leg; a leg without one is not served */
  upstreams: Partial<Record<LegName, string>>;
  clock: Clock;
  host?: string;
  port?: number;
  limits?: ServerLimits;
  tls?: TlsServerOptions;
  /** `--allowed-host`: Host names served beside localhost, IP addresses and `host` */
  allowedHosts?: readonly string[];
  journal?: Journal;
  /** faults on one leg (default: the leg the platform calls) */
  plan?: FaultPlan;
  faultLeg?: LegName;
  bodyLimit?: number;
  /** contract warnings count as errors */
  strict?: boolean;
  /** protocol ms the proxy waits for an upstream answer before a 504 (default 60 s) */
  upstreamTimeoutMs?: number;
  /** used for every upstream call (default: undici's global dispatcher) */
  dispatcher?: Dispatcher;
  /**
   * a platform profile's delivery policies (`--profile`): each attempt is placed against its
   * schedule instead of the spec's, and one that departs from it is flagged
   */
  profile?: {
    name: string;
    policies: Partial<Record<LegName, DeliveryPolicy>>;
    /** docs: an integrator's answer ends a series by its status class (the Chat API page) */
    channelReplies?: 'spec' | 'docs';
    /** what the profile learned of each payload kind: the forms sent, the statuses answered */
    kinds?: Readonly<Record<string, KindProfile>>;
  };
  /**
   * the cross-interface invariants checked on the conversations passing through
   * (src/trace/invariants.ts); `disabled` names those not checked
   */
  invariants?: Pick<InvariantOptions, 'disabled'>;
  onEvent?: (event: ProxyEvent) => void;
}

/** One proxied exchange, as it happened and as judged. */
export interface ProxyExchangeEvent {
  type: 'exchange';
  /** wall time of arrival, ISO 8601 */
  at: string;
  protocolMs: number;
  leg: LegName;
  caller: string;
  answerer: string;
  method: string;
  /** the path on the proxy */
  path: string;
  /** where it was forwarded */
  upstream: string;
  kind?: string;
  answerKind?: string;
  status?: number;
  /** no answer from the upstream (then the caller got a 502 or 504) */
  failure?: { reason: string; message: string };
  /** protocol ms from arrival to the answer */
  durationMs: number;
  /** the spec's budget for this answer (protocol ms) */
  budgetMs?: number;
  /** over the budget: the real platform would have timed out */
  slow: boolean;
  /** the answer ends the caller's series (integrator: a valid reply, spec 2.2; others: 2xx) */
  accepted: boolean;
  /** `message`: the series' message.id (or event id), else `body sha1:...` */
  /**
   * `against`: the profile the attempt is placed against (`--profile`; absent: the spec);
   * `departs`: it is off that profile's schedule or beyond its attempts
   */
  attempt?: AttemptInfo & { message?: string; against?: string; departs?: boolean };
  outcome?: SeriesOutcome;
  /**
   * `--profile`: how the exchange departs from what the profile learned of its kind (a field
   * form the platform never sent, a field it never had, an answer status it never gave)
   */
  drift?: string[];
  /** errors of the request (the caller's) and of the answer (the answerer's) */
  requestIssues: ContractIssue[];
  answerIssues: ContractIssue[];
  /**
   * the exchange in one word, as every role's lines carry it: ok when neither side broke the
   * contract, nothing failed, the answer came within the budget and it was accepted (a 500
   * from the integrator is not ok, spec 2.2, 8; `--quiet` still prints the others)
   */
  verdict: { ok: boolean; errors: number; warnings: number };
  /** the fault injected, in --fault syntax; `forwarded` false when it replaced the upstream */
  fault?: string;
  forwarded: boolean;
}

export interface ProxySummary {
  type: 'summary';
  exchanges: number;
  byLeg: Partial<Record<LegName, number>>;
  /** exchanges with at least one contract error */
  violations: number;
  /** error count per rule (`kind path: rule`) */
  byRule: Record<string, number>;
  warnings: number;
  /** `--profile`: drift lines (how exchanges depart from what the profile learned) */
  drift: number;
  slow: number;
  /**
   * answers the real party gave in time that it did not accept (an integrator's 500, a
   * provider's 503): the caller's series goes on or ends unaccepted (spec 2.2, 8)
   */
  notAccepted: number;
  redelivered: number;
  gaveUp: number;
  /** of those, series the party failed by its own doing: what --fail-on-violation counts */
  gaveUpByParty: number;
  upstreamFailures: number;
  /** exchanges the proxy's own --fault changed (its answers are not the upstream's) */
  injected: number;
  /** broken cross-interface invariants, and their count per rule */
  invariantViolations: number;
  byInvariant: Record<string, number>;
}

/**
 * A broken invariant in a conversation that passed through: the rule, its contract section,
 * and the two exchanges it relates (their seq in the `--record` journal, else the proxy's
 * own count of exchanges).
 */
export interface ProxyViolationEvent extends Violation {
  type: 'violation';
}

/**
 * A request the proxy answered itself and did not forward: a path no leg serves (404), a
 * Host not admitted (403), a body over the limit (413). Said once per path, Host or body
 * refusal of a path: the caller gets the answer, the person watching the proxy would see
 * nothing else of it.
 */
export interface ProxyUnroutedEvent {
  /** the one type of every serving command's refusals (docs/reference.md) */
  type: 'request-rejected';
  /** wall time of arrival, ISO 8601 */
  at: string;
  method: string;
  /** the path as sent, the secrets seen so far hidden */
  path: string;
  status: 404 | 403 | 413;
  code: 'no_route' | 'host_not_allowed' | 'body_too_large';
  message: string;
  /** no_route: the proxy URL of each leg and who calls it */
  serves?: { leg: LegName; caller: string; url: string }[];
  /** no_route: the path is a leg's the proxy was started without, and the flag that adds it */
  missing?: { leg: LegName; flag: string };
  /** host_not_allowed: the Host the request named */
  host?: string;
}

export type ProxyEvent =
  ProxyExchangeEvent | ProxySummary | ProxyViolationEvent | ProxyUnroutedEvent;

export interface RunningProxy {
  readonly url: string;
  readonly port: number;
  /** the proxy URL of each leg, with the upstream it forwards to */
  readonly legs: readonly { leg: LegSpec; url: string; upstream: string }[];
  summary(): ProxySummary;
  /**
   * Hides the secrets seen so far (the channel's random string, spec 5.1; bot tokens in the
   * paths, spec 5.2) as `***`: for the lines printed and the `--record` journal.
   */
  redact(text: string): string;
  /**
   * A Web standard Request through the proxy's pipeline without its socket (journal, leg,
   * body limit, judging, the fault leg, the forwarder): the upstream still answers over the
   * network (src/http/fetch-adapter.ts)
   */
  readonly fetch: (request: Request) => Promise<Response>;
  close(graceMs?: number): Promise<void>;
}
