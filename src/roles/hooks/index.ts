/** The hook side facing the platform (interface D): fire synthetic events, receive them. */
export {
  fireHook,
  fireAllHooks,
  checkReply,
  notAHookTarget,
  resolveHookEvent,
  startReceiverHint,
  DEFAULT_HOOK_TIMEOUT_MS,
  type FireHookOptions,
  type FireResult,
} from './fire.js';
export {
  createHookTarget,
  hookEventOf,
  type HookTarget,
  type HookTargetEvent,
  type HookTargetListening,
  type HookTargetOptions,
} from './target.js';
export {
  buildSampleHookEvent,
  defaultHookReply,
  HOOK_LIFECYCLE,
  SAMPLE_CRM_LINK,
  type SampleOptions,
} from './samples.js';
export { parseSetFlag, setPath } from './set-path.js';
