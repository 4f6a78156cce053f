import { bodyText, writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** No fault: the role's normal reply. */
export function applyNone({ res, normal }: FaultContext): AppliedReply {
  return writeReply(res, normal.status, bodyText(normal.body), normal.headers);
}
