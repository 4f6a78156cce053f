/**
 * The closed catalogue of error codes (so callers match on a code, never on text): every `SvcError` names one
 * of these, with the category that picks its exit code, and, for the control API, the HTTP
 * status it answers. Match on the code, never on message text.
 */
export const ERRORS = {
  // usage and input (exit 2)
  SVC_E_USAGE: { category: 'input' },
  SVC_E_FLAG: { category: 'input' },
  SVC_E_OPTIONS: { category: 'input' },
  SVC_E_UNKNOWN_COMMAND: { category: 'input' },
  SVC_E_CONFIG: { category: 'input' },
  SVC_E_CONFIG_EXISTS: { category: 'input' },
  SVC_E_CONFIG_VERSION: { category: 'input' },
  SVC_E_READ: { category: 'input' },
  SVC_E_WRITE: { category: 'input' },
  SVC_E_NO_INPUT: { category: 'input' },
  SVC_E_RECORD: { category: 'input' },
  SVC_E_TLS_FILE: { category: 'input' },
  SVC_E_PROXY_UPSTREAM: { category: 'input' },
  SVC_E_RECORDING: { category: 'input' },
  SVC_E_PROFILE: { category: 'input' },
  SVC_E_LISTEN: { category: 'input' },
  SVC_E_PORT_IN_USE: { category: 'input' },
  SVC_E_FAULT_PLAN: { category: 'input' },
  SVC_E_BOT_SCRIPT: { category: 'input' },
  SVC_E_BOT_SCRIPT_VERSION: { category: 'input' },
  SVC_E_CONVERSATION: { category: 'input' },
  SVC_E_CONVERSATION_VERSION: { category: 'input' },
  SVC_E_NO_CONVERSATIONS: { category: 'input' },
  SVC_E_CONCURRENCY: { category: 'input' },
  SVC_E_REPLY_FLAG: { category: 'input' },
  SVC_E_SET: { category: 'input' },
  SVC_E_SET_FORBIDDEN_KEY: { category: 'input' },
  SVC_E_HOOK_BODY: { category: 'input' },
  SVC_E_UNKNOWN_EVENT: { category: 'input' },
  SVC_E_UNKNOWN_KIND: { category: 'input' },
  /** --mutant or SVC_MUTANT names no simulator mutant */
  SVC_E_UNKNOWN_MUTANT: { category: 'input' },
  /** svc-cli mutate: the test command failed before any mutant ran */
  SVC_E_MUTATE_CLEAN_RUN: { category: 'input' },
  /** svc-cli explain: no section, kind, field, rule code or error code by that name */
  SVC_E_UNKNOWN_TOPIC: { category: 'input' },
  SVC_E_CHANNEL_URL: { category: 'input' },
  /** send-text or status pointed at svc-cli listen, the integrator's side (spec 4.1, 4.2) */
  SVC_E_NOT_A_CHANNEL: { category: 'input' },
  /** hook-fire pointed at another svc-cli serving role (listen, bot-sim), spec 4.4 */
  SVC_E_NOT_A_HOOK_TARGET: { category: 'input' },
  SVC_E_PHONE: { category: 'input' },
  /** a duration flag (--wait, --timeout, load --duration, ...) that is no duration */
  SVC_E_DURATION: { category: 'input' },
  SVC_E_LOAD_MIX: { category: 'input' },
  SVC_E_LOAD_RATE: { category: 'input' },
  SVC_E_LOAD_RATIO: { category: 'input' },
  SVC_E_LOAD_THRESHOLD: { category: 'input' },
  /** a payload that breaks the contract, refused before sending (without --force) */
  SVC_E_INVALID_PAYLOAD: { category: 'input' },
  /** --platform-url does not answer like an svc simulator */
  SVC_E_NOT_SVC_PLATFORM: { category: 'input' },
  // the control API's own answers (exit 2 from a command; the HTTP status from the API)
  SVC_E_CONTROL_BODY: { category: 'input', status: 400 },
  SVC_E_AGENT_MESSAGE: { category: 'input', status: 400 },
  SVC_E_NO_CHAT: { category: 'input', status: 404 },
  SVC_E_NO_CHANNEL: { category: 'input', status: 404 },
  SVC_E_NO_AGENT: { category: 'input', status: 404 },
  SVC_E_NO_EXCHANGE: { category: 'input', status: 404 },
  SVC_E_NO_CRM_LINK: { category: 'input', status: 409 },
  SVC_E_CHAT_CLOSED: { category: 'input', status: 409 },
  SVC_E_AGENTS_ONLINE: { category: 'input', status: 409 },
  SVC_E_RESEND: { category: 'input', status: 409 },
  SVC_E_OVERLOADED: { category: 'input', status: 503 },
  // the contract (exit 1)
  /** the platform answered 404: no channel at that URL (unknown public id or wrong random string, spec 4.1) */
  SVC_E_UNKNOWN_CHANNEL: { category: 'contract' },
  SVC_E_STATUS_BODY: { category: 'contract' },
  SVC_E_CHANNEL_STATUS: { category: 'contract' },
  // the network (exit 3)
  SVC_E_TIMEOUT: { category: 'network' },
  SVC_E_UNREACHABLE: { category: 'network' },
  SVC_E_UNTRUSTED_CERT: { category: 'network' },
  /** an https:// URL whose server does not complete a TLS handshake (plain HTTP, say) */
  SVC_E_TLS: { category: 'network' },
  SVC_E_PEER_UNREACHABLE: { category: 'network' },
  SVC_E_HOOK_TIMEOUT: { category: 'network' },
  SVC_E_HOOK_UNREACHABLE: { category: 'network' },
  // svc-cli itself (exit 4)
  SVC_E_INTERNAL: { category: 'internal' },
  /** a replay step waits for nothing that can still happen */
  SVC_E_STEP_STUCK: { category: 'internal' },
  /** an event listener changed chat state (the core's checkObservers) */
  SVC_E_OBSERVER_CHANGED_STATE: { category: 'internal' },
  /** the built web pages are missing (npm run build) */
  SVC_E_WEB_ASSETS: { category: 'internal' },
  // the machine under svc-cli (exit 5)
  /** a file could not be written whole: a full disk, a quota, an I/O error, a read-only file system */
  SVC_E_DISK: { category: 'system' },
  /** too many open files: the process's limit (ulimit -n) or the system's */
  SVC_E_FILE_LIMIT: { category: 'system' },
} as const satisfies Record<
  string,
  { category: 'input' | 'contract' | 'network' | 'internal' | 'system'; status?: number }
>;

export type ErrorCode = keyof typeof ERRORS;
export type CategoryOf<C extends ErrorCode> = (typeof ERRORS)[C]['category'];
