import { createHash } from 'node:crypto';
import type { Fault } from './fault.js';

/**
 * A fault plan: what a serving role does to each request. Produced by flags
 * (`--fail-first`, `--delay`, `--fault`, `--fault-rate`, `--seed`), a plan file or a fixture.
 */
export interface FaultPlan {
  /** protocol ms to wait before every answer */
  delayMs?: number;
  /** the first N attempts of each message fail (attempts recognised by message id or body hash) */
  failFirst?: number;
  /** how those attempts fail (default status:500) */
  failWith?: Fault;
  /** applied to every request (or with probability `rate`) once failFirst is spent */
  fault?: Fault;
  /** 0..1: probability that `fault` applies (default 1) */
  rate?: number;
  /** seed for `rate` (default 1): the same seed gives the same faults */
  seed?: number;
  /** faults by request number, in arrival order (1st request -> sequence[0]); then the rules above */
  sequence?: Fault[];
}

/** A fault where code gives it: a Fault, or the --fault syntax ("status:503"). */
export type FaultInput = Fault | string;

/**
 * A fault plan where code gives it (`setFaults`, `createMswPlatform({ faults })`, `PUT
 * /_sim/faults`): each fault an object or in the --fault syntax, as a plan file writes it.
 */
export interface FaultPlanInput extends Omit<FaultPlan, 'failWith' | 'fault' | 'sequence'> {
  failWith?: FaultInput;
  fault?: FaultInput;
  sequence?: FaultInput[];
}

export interface FaultDecision {
  fault: Fault;
  delayMs: number;
  /** this message's attempt number, 1-based */
  attempt: number;
  /** the request's arrival number, 1-based */
  requestNumber: number;
}

export interface FaultInjector {
  readonly plan: FaultPlan;
  /** Decides what to do with a request; `key` identifies the message across attempts. */
  decide(key: string): FaultDecision;
}

/**
 * The fault plan in force where it can be replaced while serving (`PUT /_sim/faults`,
 * `Platform.setFaults`, msw's `setFaults`): the fault step reads `injector` per request, so
 * undefined (no plan) costs it one check.
 */
export interface FaultSwitch {
  injector: FaultInjector | undefined;
}

/** Whether a plan says nothing (every field unset): no plan at all. */
export const isEmptyPlan = (plan: FaultPlan): boolean =>
  !Object.values(plan).some((value) => value !== undefined);

/**
 * Puts a plan in force (attempt counts start again), or none (undefined, or an empty plan);
 * answers the plan that was in force before (undefined: none).
 * @example const before = switchFaults(core.faults, { failFirst: 1 });
 */
export function switchFaults(
  faults: FaultSwitch,
  plan: FaultPlan | undefined,
): FaultPlan | undefined {
  const before = faults.injector?.plan;
  faults.injector = plan === undefined || isEmptyPlan(plan) ? undefined : createFaultInjector(plan);
  return before;
}

const NONE: Fault = { kind: 'none' };
const DEFAULT_FAIL: Fault = { kind: 'status', status: 500 };
/** Attempts are remembered for this many distinct messages (bounded memory). */
const MAX_KEYS = 100_000;

/** mulberry32: a tiny seeded PRNG, so `--seed` makes random faults reproducible. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @example const inj = createFaultInjector({ failFirst: 2 }); inj.decide('m-1').fault.kind // 'status'
 */
export function createFaultInjector(plan: FaultPlan = {}): FaultInjector {
  const attempts = new Map<string, number>();
  const random = createRandom(plan.seed ?? 1);
  let requests = 0;
  return {
    plan,
    decide(key) {
      requests++;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.delete(key);
      attempts.set(key, attempt);
      if (attempts.size > MAX_KEYS) {
        const oldest = attempts.keys().next().value;
        if (oldest !== undefined) attempts.delete(oldest);
      }
      const delayMs = plan.delayMs ?? 0;
      const fromSequence = plan.sequence?.[requests - 1];
      let fault: Fault = NONE;
      if (fromSequence) fault = fromSequence;
      else if (plan.failFirst !== undefined && attempt <= plan.failFirst)
        fault = plan.failWith ?? DEFAULT_FAIL;
      else if (plan.fault && (plan.rate === undefined || random() < plan.rate)) fault = plan.fault;
      return { fault, delayMs, attempt, requestNumber: requests };
    },
  };
}

/**
 * The identity of a message across redelivery attempts: `message.id` when present
 * (spec 2.2), else a hash of the raw body.
 */
export function messageKeyOf(json: unknown, raw: string): string {
  if (json !== null && typeof json === 'object') {
    const message = (json as { message?: unknown }).message;
    if (message !== null && typeof message === 'object') {
      const id = (message as { id?: unknown }).id;
      if (typeof id === 'string' || typeof id === 'number') return `id:${String(id)}`;
    }
    const eventId = (json as { id?: unknown }).id;
    if (typeof eventId === 'string' || typeof eventId === 'number') return `id:${String(eventId)}`;
  }
  return `sha1:${createHash('sha1').update(raw).digest('hex')}`;
}

/**
 * The identity of a message the platform receives, across a sender's retries: the sender's
 * id with the body's hash. The platform's own ids name a message (a redelivery keeps its id,
 * spec 8), but an integrator's `message.id` is for logs only (spec 2.1) and may come again on
 * another message: one integrator sends one id on every message, and keyed by the id alone
 * `--fail-first 2` refused its first message only. A retry sends the same body again.
 * @example receivedMessageKeyOf({ message: { id: 'm' } }, raw) // 'id:m#sha1:...'
 */
export function receivedMessageKeyOf(json: unknown, raw: string): string {
  const key = messageKeyOf(json, raw);
  return key.startsWith('id:')
    ? `${key}#sha1:${createHash('sha1').update(raw).digest('hex')}`
    : key;
}
