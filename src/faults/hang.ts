import type { AppliedReply, FaultContext } from './reply.js';

/**
 * Never answers. The socket stays open until the client gives up or the server closes, so
 * a hanging request holds no timer of its own.
 */
export function applyHang({ req }: FaultContext): AppliedReply {
  req.socket.setTimeout(0);
  return { noReply: 'hang' };
}
