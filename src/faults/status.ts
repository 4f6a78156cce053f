import { errorBody } from '../wire-errors.js';
import { writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** An HTTP status other than the normal one, with a JSON error body (`injected`). */
export function applyStatus({ wire }: FaultContext, status: number): AppliedReply {
  const body = JSON.stringify(errorBody('injected', injectedMessage(status)));
  return writeReply(wire, status, body);
}

/** What a `--fault status:<code>` answer says, over a socket and in msw alike. */
export const injectedMessage = (status: number): string => `svc-cli injected HTTP ${status}`;
