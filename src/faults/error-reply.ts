import { errorBody, userErrorCode } from '../wire-errors.js';
import { writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** HTTP 200 with `{"error":{"code","message"}}`: a valid error reply (spec 2.2, 4.2). */
export function applyErrorReply(
  { wire }: FaultContext,
  code: string,
  message: string,
): AppliedReply {
  return writeReply(wire, 200, JSON.stringify(errorBody(userErrorCode(code), message)));
}
