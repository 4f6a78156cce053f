import { writeReply, type AppliedReply, type FaultContext } from './reply.js';

/** An HTTP status other than the normal one, with a JSON error body. */
export function applyStatus({ wire }: FaultContext, status: number): AppliedReply {
  const body = JSON.stringify({
    error: { code: `injected_${status}`, message: `svc-cli injected HTTP ${status}` },
  });
  return writeReply(wire, status, body);
}
