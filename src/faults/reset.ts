import type { AppliedReply, FaultContext } from './reply.js';

/** Resets the TCP connection (RST) without an HTTP reply. */
export function applyReset({ req }: FaultContext): AppliedReply {
  const socket = req.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
  return { noReply: 'reset' };
}
