/** The programmatic API: the same core the CLI uses (no terminal code). */
export { SvcError, EXIT_CODES, exitCodeFor, type ErrorCategory } from './errors.js';
export {
  createClock,
  createVirtualClock,
  type Clock,
  type VirtualClock,
  type ClockOptions,
  type Timer,
} from './clock.js';
export type {
  ContractIssue,
  ValidationResult,
  ValidateOptions,
  Severity,
} from './contract/types.js';
export {
  validateInputs,
  type ValidateInputsOptions,
  type ValidateEvent,
  type ValidateResultEvent,
  type ValidateSummaryEvent,
} from './contract/run-validate.js';
export {
  createPlatform,
  sendAgentMessage,
  setAgentsOnline,
  closeChat,
  type Platform,
  type PlatformOptions,
  type SendAgentMessageOptions,
  type AgentMessageResult,
} from './platform/index.js';
export type { FaultPlan, FaultPlanInput, Fault, FaultInput } from './faults/index.js';
