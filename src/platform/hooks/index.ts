/** Interface D on the platform side: builders, triggers, calls and the reply's use. */
export {
  buildCallEvent,
  buildChatAccepted,
  buildChatAssigned,
  buildChatFinished,
  buildChatUpdated,
  buildOfflineMessage,
  compact,
  type HookAgent,
  type HookBase,
  type HookCall,
  type HookChatLogItem,
  type HookEventName,
  type HookVisitor,
} from '../../hook-events/builders.js';
export { buildVisitorProfile, seedOf, type VisitorProfile } from '../../hook-events/profile.js';
export {
  assignChat,
  hookDataOf,
  rateChat,
  sendOfflineForm,
  updateVisitor,
  type ChatHookData,
  type OfflineForm,
  type VisitorUpdate,
} from './actions.js';
export { startCall, CALL_STEP_MS, CALL_TALK_MS, type StartCallOptions } from './calls.js';
export { useHookReply, type HookReplyInput } from './reply.js';
export { createHookControl } from './control.js';
export type {
  HookPlatformEvent,
  ChatAssignedEvent,
  OfflineMessageEvent,
  CallStatusEvent,
  HookSentEvent,
  HookReplyEvent,
  CrmDataEvent,
} from './events.js';
