import type { Fault } from './fault.js';
import type { AppliedReply, FaultContext } from './reply.js';
import { applyNone } from './none.js';
import { applyStatus } from './status.js';
import { applyReset } from './reset.js';
import { applyHang } from './hang.js';
import { applyBadJson } from './bad-json.js';
import { applyErrorReply } from './error-reply.js';
import { applySlowBody } from './slow-body.js';

/**
 * Answers one request as the fault says, after `delayMs` of protocol time.
 * @example await applyFault({ kind: 'status', status: 503 }, ctx, 0);
 */
export async function applyFault(
  fault: Fault,
  context: FaultContext,
  delayMs = 0,
): Promise<AppliedReply> {
  if (delayMs > 0) {
    const controller = new AbortController();
    const off = context.wire.onClose(() => controller.abort(new Error('client closed')));
    try {
      await context.clock.sleep(delayMs, controller.signal);
    } catch {
      return { noReply: 'hang' };
    } finally {
      off();
    }
  }
  switch (fault.kind) {
    case 'none':
      return applyNone(context);
    case 'status':
      return applyStatus(context, fault.status);
    case 'reset':
      return applyReset(context);
    case 'hang':
      return applyHang(context);
    case 'bad-json':
      return applyBadJson(context);
    case 'error':
      return applyErrorReply(context, fault.code, fault.message);
    case 'slow-body':
      return applySlowBody(context, fault.durationMs);
    default: {
      const never: never = fault;
      throw new Error(`unknown fault ${JSON.stringify(never)}`);
    }
  }
}
