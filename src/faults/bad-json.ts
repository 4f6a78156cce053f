import { writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** HTTP 200 with a body that is not JSON. */
export function applyBadJson({ res }: FaultContext): AppliedReply {
  return writeReply(res, 200, '{"result": ok');
}
