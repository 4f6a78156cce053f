/**
 * spec 6.2: the hook events, zod-free, so that `--help` and completion (the start-up bundle)
 * can name them without loading the contract's schemas; contract/hooks.ts re-exports them
 * beside the schemas (offline_messages is the field table's spelling, also accepted there).
 */
export const HOOK_EVENTS = [
  'call_event',
  'chat_accepted',
  'chat_assigned',
  'chat_finished',
  'chat_updated',
  'offline_message',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];
