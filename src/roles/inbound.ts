/**
 * The ONE inbound pipeline of the serving roles: read the body within the limit,
 * refuse what the role does not serve, apply the fault plan to the role's normal answer,
 * write the reply and journal the exchange. A role says only what is its own: which requests
 * it admits, how it judges a body and what it would answer; it reports through two callbacks.
 */
import type { Clock } from '../clock.js';
import {
  applyFault,
  createFaultInjector,
  describeFault,
  type FaultDecision,
  type FaultPlan,
} from '../faults/index.js';
import type { AppliedReply } from '../faults/reply.js';
import { DEFAULT_BODY_LIMIT, errorBody, type TransferMode } from '../http/body.js';
import type { InboundExchange } from '../http/exchange.js';
import type { ExchangeInput, Journal } from '../journal/index.js';
import type { WireErrorCode } from '../wire-errors.js';
import { recordExchange } from '../journal/index.js';

/** A request the role refuses before reading it as its own (404, 405, 401 ...). */
export interface Refusal {
  status: number;
  code: WireErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/** A body as read within the limit. */
export interface InboundBody {
  json: unknown;
  raw: string;
  transfer: TransferMode;
  bytes: number;
}

/** What the role makes of a body: its kind and verdict, and the answer it would give. */
export interface RoleAnswer {
  kind: string;
  verdict: NonNullable<ExchangeInput['verdict']>;
  /** the reply without faults */
  normal: { status: number; body: unknown; headers?: Record<string, string> };
  /** what redeliveries share (the fault plan counts attempts per key) */
  key: string;
  notes?: string[];
  /**
   * false: the role refuses this body as it is (a malformed event gets its 400), and the fault
   * plan neither applies nor counts an attempt; faults act on valid requests only
   */
  faults?: false;
}

/** What happened to an admitted request: the role turns it into its own event. */
export interface InboundOutcome {
  method: string;
  path: string;
  body: InboundBody;
  answer: RoleAnswer;
  decision: FaultDecision;
  applied: AppliedReply;
  fault: string;
  protocolMs: number;
  durationMs: number;
}

export interface RefusedOutcome {
  method: string;
  path: string;
  status: number;
  code: WireErrorCode;
  message: string;
  transfer: TransferMode;
  protocolMs: number;
}

/** What a role sees of a request before its body. */
export type InboundRequest = Pick<InboundExchange, 'method' | 'path' | 'headers'>;

export interface InboundRole {
  iface: ExchangeInput['iface'];
  clock: Clock;
  journal?: Journal | undefined;
  plan?: FaultPlan | undefined;
  bodyLimit?: number | undefined;
  /** undefined: the request is the role's; else why not */
  admit(request: InboundRequest): Refusal | undefined;
  /** judges an admitted body */
  answer(body: InboundBody, request: InboundRequest): RoleAnswer;
  onRefused(outcome: RefusedOutcome): void;
  onAnswered(outcome: InboundOutcome): void;
  /** hears every answered body (the embedded world's expectations, without a journal) */
  observe?: ((seen: ObservedExchange) => void) | undefined;
}

/** A body a role answered, as the embedded world's expectations match it. */
export interface ObservedExchange {
  json: unknown;
  /** the attempt of this message (the fault plan counts them) */
  attempt: number;
  /** the answer's body, as JSON when it is JSON; absent with no reply (reset, hang) */
  reply: unknown;
  /** the answer's HTTP status; absent with no reply */
  status?: number;
}

/** A reply body as JSON when it parses, else as text. */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The handler that runs every request through the pipeline, on a socket or in process
 * (`serveExchanges`, src/http/exchange.ts).
 * @example serveExchanges('hooks', createInboundHandler({ iface: 'hook', clock, admit, answer, onRefused, onAnswered }), options, onError)
 */
export function createInboundHandler(
  role: InboundRole,
): (exchange: InboundExchange) => Promise<void> {
  const injector = createFaultInjector(role.plan ?? {});
  const { clock } = role;
  return async (exchange) => {
    const arrivedAt = clock.now();
    const wallStart = clock.wallNow();
    const { method, path, url, wire } = exchange;
    const journal = (
      extras: Omit<ExchangeInput, 'protocolMs' | 'iface' | 'direction' | 'request'>,
      body?: string,
    ) =>
      recordExchange(role.journal, {
        protocolMs: arrivedAt,
        iface: role.iface,
        direction: 'in',
        request: {
          method,
          url,
          headers: exchange.headers,
          ...(body === undefined ? {} : { body }),
        },
        durationMs: clock.now() - arrivedAt,
        wallMs: clock.wallNow() - wallStart,
        ...extras,
      });
    const refuse = (refusal: Refusal, raw?: string): void => {
      exchange.skipBody();
      const answer = JSON.stringify(errorBody(refusal.code, refusal.message));
      wire.send(refusal.status, answer, refusal.headers ?? {}, { batched: true });
      journal(
        {
          response: { status: refusal.status, body: answer },
          notes: [refusal.code],
        },
        raw,
      );
      role.onRefused({
        method,
        path,
        status: refusal.status,
        code: refusal.code,
        message: refusal.message,
        transfer: exchange.transfer,
        protocolMs: arrivedAt,
      });
    };
    const refusal = role.admit(exchange);
    if (refusal) return refuse(refusal);
    const read = await exchange.readBody(role.bodyLimit ?? DEFAULT_BODY_LIMIT);
    if (!read.ok)
      return refuse({ status: read.status, code: read.code, message: read.message }, read.raw);
    const body: InboundBody = {
      json: read.json,
      raw: read.raw,
      transfer: read.transfer,
      bytes: read.bytes,
    };
    const answer = role.answer(body, exchange);
    const decision: FaultDecision =
      answer.faults === false
        ? { fault: { kind: 'none' }, delayMs: 0, attempt: 1, requestNumber: 0 }
        : injector.decide(answer.key);
    const applied = await applyFault(
      decision.fault,
      { wire, clock, normal: answer.normal },
      decision.delayMs,
    );
    const fault = describeFault(decision.fault);
    journal(
      {
        kind: answer.kind,
        attempt: decision.attempt,
        ...(applied.noReply
          ? {
              failure: {
                reason: applied.noReply,
                message: `no reply: ${applied.noReply} (injected)`,
              },
            }
          : { response: { status: applied.status ?? 0, body: applied.body ?? '' } }),
        verdict: answer.verdict,
        fault,
        ...(answer.notes ? { notes: answer.notes } : {}),
      },
      body.raw,
    );
    role.observe?.({
      json: body.json,
      attempt: decision.attempt,
      reply: applied.noReply ? undefined : parsedOr(applied.body ?? ''),
      ...(applied.noReply || applied.status === undefined ? {} : { status: applied.status }),
    });
    role.onAnswered({
      method,
      path,
      body,
      answer,
      decision,
      applied,
      fault,
      protocolMs: arrivedAt,
      durationMs: clock.now() - arrivedAt,
    });
  };
}
