import { writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** HTTP 200 with a body that is not JSON. */
export function applyBadJson({ wire }: FaultContext): AppliedReply {
  return writeReply(wire, 200, '{"result": ok');
}
