/**
 * Faults a serving role (listen, bot-sim, hook-target) can inject into its replies: a closed
 * union, so a new fault cannot be forgotten in a switch. A fault plan is plain data that a flag, a config file and a
 * fixture can all produce.
 */
export type Fault =
  /** answer normally */
  | { kind: 'none' }
  /** answer with this HTTP status and a JSON error body */
  | { kind: 'status'; status: number }
  /** reset the TCP connection without answering */
  | { kind: 'reset' }
  /** accept the request and never answer */
  | { kind: 'hang' }
  /** HTTP 200 with a body that is not JSON */
  | { kind: 'bad-json' }
  /** HTTP 200 with `{"error":{"code","message"}}` (a valid error reply, spec 4.2) */
  | { kind: 'error'; code: string; message: string }
  /** HTTP 200 whose body trickles out over `durationMs` of protocol time */
  | { kind: 'slow-body'; durationMs: number };

export type FaultKind = Fault['kind'];

export const FAULT_SYNTAX =
  'none | status:<code> | reset | hang | bad-json | error:<code>:<message> | slow-body[:<ms>]';

export type ParseFaultResult = { ok: true; fault: Fault } | { ok: false; message: string };

/**
 * Parses the `--fault` flag syntax.
 * @example parseFault('status:503') // { ok: true, fault: { kind: 'status', status: 503 } }
 */
export function parseFault(text: string): ParseFaultResult {
  const [head = '', ...rest] = text.trim().split(':');
  const arg = rest.join(':');
  switch (head) {
    case 'none':
      return { ok: true, fault: { kind: 'none' } };
    case 'reset':
      return { ok: true, fault: { kind: 'reset' } };
    case 'hang':
      return { ok: true, fault: { kind: 'hang' } };
    case 'bad-json':
      return { ok: true, fault: { kind: 'bad-json' } };
    case 'status': {
      const status = Number(arg);
      if (!Number.isInteger(status) || status < 100 || status > 599) {
        return {
          ok: false,
          message: `"${text}": status:<code> needs an HTTP status from 100 to 599`,
        };
      }
      return { ok: true, fault: { kind: 'status', status } };
    }
    case 'error': {
      const [code = '', ...words] = rest;
      if (code === '')
        return { ok: false, message: `"${text}": error:<code>:<message> needs a code` };
      return {
        ok: true,
        fault: { kind: 'error', code, message: words.join(':') || 'injected error' },
      };
    }
    case 'slow-body': {
      const durationMs = arg === '' ? 5000 : Number(arg);
      if (!Number.isFinite(durationMs) || durationMs < 0) {
        return { ok: false, message: `"${text}": slow-body:<ms> needs a duration in milliseconds` };
      }
      return { ok: true, fault: { kind: 'slow-body', durationMs } };
    }
    default:
      return { ok: false, message: `unknown fault "${text}"; expected ${FAULT_SYNTAX}` };
  }
}

/** The flag syntax of a fault, for output and records. */
export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'none':
    case 'reset':
    case 'hang':
    case 'bad-json':
      return fault.kind;
    case 'status':
      return `status:${fault.status}`;
    case 'error':
      return `error:${fault.code}:${fault.message}`;
    case 'slow-body':
      return `slow-body:${fault.durationMs}`;
    default: {
      const never: never = fault;
      throw new Error(`unknown fault ${JSON.stringify(never)}`);
    }
  }
}
