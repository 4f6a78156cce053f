export {
  parseFault,
  describeFault,
  FAULT_SYNTAX,
  type Fault,
  type FaultKind,
  type ParseFaultResult,
} from './fault.js';
export {
  createFaultInjector,
  createRandom,
  isEmptyPlan,
  messageKeyOf,
  receivedMessageKeyOf,
  switchFaults,
  type FaultPlan,
  type FaultPlanInput,
  type FaultInput,
  type FaultDecision,
  type FaultInjector,
  type FaultSwitch,
} from './plan.js';
export { answerOnWire, waitOnWire } from './apply.js';
export {
  faultEffect,
  faultStep,
  type FaultAdapter,
  type FaultEffect,
  type InjectedEffect,
} from './step.js';
export type { AppliedReply, FaultContext, NormalReply } from './reply.js';
export {
  checkFaultPlan,
  loadFaultPlan,
  faultPlanSchema,
  faultPlanBodySchema,
  faultPlanText,
  type FaultPlanText,
} from './plan-file.js';
