import { bodyText, writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** No fault: the role's normal reply. */
export function applyNone({ wire, normal }: FaultContext): AppliedReply {
  return writeReply(wire, normal.status, bodyText(normal.body), normal.headers);
}
