import type { AppliedReply, FaultContext } from './reply.js';

/**
 * Never answers. The request stays open until the client gives up or the server closes, so
 * a hanging request holds no timer of its own.
 */
export function applyHang({ wire }: FaultContext): AppliedReply {
  wire.hang();
  return { noReply: 'hang' };
}
