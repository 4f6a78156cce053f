/**
 * A fault's effect written on a reply wire (a socket, or the in-process transport): the
 * socket side's adapter of the one reading in `step.ts`.
 */
import type { Clock } from '../clock.js';
import type { ReplyWire } from '../http/wire.js';
import type { AppliedReply, FaultContext } from './reply.js';
import { writeReply } from './reply.js';
import { applyNone } from './none.js';
import { applyReset } from './reset.js';
import { applyHang } from './hang.js';
import { applySlowBody } from './slow-body.js';
import type { FaultEffect } from './step.js';

/**
 * Writes what `effect` says on the context's wire: the normal reply, an injected one, a reply
 * whose body trickles, or none.
 */
export function answerOnWire(
  effect: FaultEffect,
  context: FaultContext,
): AppliedReply | Promise<AppliedReply> {
  switch (effect.kind) {
    case 'answer':
      return applyNone(context);
    case 'reply':
      return writeReply(context.wire, effect.status, effect.body);
    case 'slow':
      return applySlowBody(context, effect.durationMs);
    case 'drop':
      return effect.how === 'reset' ? applyReset(context) : applyHang(context);
    default: {
      const never: never = effect;
      throw new Error(`unknown fault effect ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Waits `delayMs` of protocol time unless the client leaves first (then false: a request
 * the client gave up on is not answered).
 */
export async function waitOnWire(wire: ReplyWire, clock: Clock, delayMs: number): Promise<boolean> {
  const controller = new AbortController();
  const off = wire.onClose(() => controller.abort(new Error('client closed')));
  try {
    await clock.sleep(delayMs, controller.signal);
    return true;
  } catch {
    return false;
  } finally {
    off();
  }
}
