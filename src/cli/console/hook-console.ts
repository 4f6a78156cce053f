import { findChat, type PlatformCore } from '../../platform/index.js';
import { assignChat, startCall } from '../../platform/hooks/index.js';
import type { Output } from '../render/output.js';
import type { ConsoleAction } from './agent-console.js';

/**
 * Runs the agent console's hook actions: `/assign` presses the crm_link button
 * (chat_assigned), `/call` plays a callback call (call_event). Problems throw SvcError,
 * which the console prints.
 * @example runHookConsoleAction(core, parseConsoleLine('/call +4930123 error busy'), out);
 */
export function runHookConsoleAction(
  core: PlatformCore,
  act: Extract<ConsoleAction, { kind: 'assign' | 'call' }>,
  out: Pick<Output, 'note'>,
): void {
  const target = act.customerId === undefined ? {} : { customerId: act.customerId };
  if (act.kind === 'assign') {
    assignChat(core, target);
    return;
  }
  let chatId: number | undefined;
  try {
    chatId = findChat(core, target).chat.id;
  } catch (error) {
    if (act.customerId !== undefined) throw error;
  }
  const { callId } = startCall(core, {
    phone: act.phone,
    ...(chatId === undefined ? {} : { chatId }),
    outcome:
      act.errorReason === undefined ? { kind: 'end' } : { kind: 'error', reason: act.errorReason },
  });
  out.note(`call ${callId} started`);
}
