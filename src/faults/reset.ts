import type { AppliedReply, FaultContext } from './reply.js';

/** Resets the TCP connection (RST) without an HTTP reply. */
export function applyReset({ wire }: FaultContext): AppliedReply {
  wire.reset();
  return { noReply: 'reset' };
}
