/** `svc-cli proxy`: a validating, timing, recording forwarder between real parties. */
export {
  startProxy,
  upstreamUrlOf,
  type ProxyOptions,
  type ProxyEvent,
  type ProxyExchangeEvent,
  type ProxySummary,
  type ProxyUnroutedEvent,
  type ProxyViolationEvent,
  type RunningProxy,
} from './proxy.js';
export {
  PROXY_INTERFACES,
  defaultFaultLeg,
  legsOf,
  type LegName,
  type LegSpec,
  type ProxyInterface,
} from './legs.js';
