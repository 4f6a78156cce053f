/**
 * A protocol refusal (spec 7): a route handler throws it, the platform core answers it once
 * (src/platform/core.ts): the status, `errorBody(code, message)`, its headers and journal
 * record. The status and the contract section come from the wire error catalogue
 * (src/wire-errors.ts) unless the refusal names its own (spec 7.2: an event the platform does
 * not take is `invalid_request` with 405).
 *
 * @example throw new ProtocolError('invalid_client', 'the client token failed authentication');
 */
import { WIRE_ERRORS, type WireErrorCode } from './wire-errors.js';

/**
 * What a refusal adds to the journal record of its exchange (the core adds the interface the
 * path belongs to, unless the refusal names its own: the widget channel's paths are `/_sim/`).
 */
export interface ProtocolRecord {
  iface?: 'channel' | 'bot' | 'hook' | 'widget' | 'control';
  kind?: string;
  chat?: number;
  verdict?: { ok: boolean; errors: string[]; warnings: string[] };
  notes?: string[];
}

export interface ProtocolErrorOptions {
  /** default: the catalogue's status for the code */
  status?: number;
  /** the contract section the refusal follows (default: the catalogue's) */
  section?: string | null;
  /** e.g. `allow` on a 405, `retry-after` on a 429 */
  headers?: Record<string, string>;
  record?: ProtocolRecord;
  /**
   * the answer's body when the interface answers a refusal in its own shape (the widget
   * transport's `{ok: false, error}`, spec 4.5); default `errorBody(code, message)`
   */
  body?: unknown;
  /**
   * what the simulator's own log says of the refusal (the `request-rejected` event the core
   * emits as it answers): default the answer's message; a richer one may say which part was
   * wrong where the answer must not (spec 4.1); `false` when the route reported it already
   */
  report?: string | false;
}

/** Marks every ProtocolError, whichever copy of this module made it (see SvcError's brand). */
const BRAND = Symbol.for('svc-cli.ProtocolError');

export class ProtocolError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }

  override readonly name = 'ProtocolError';
  readonly status: number;
  readonly code: WireErrorCode;
  readonly section: string | null;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly record: ProtocolRecord | undefined;
  /** the body to answer with instead of `errorBody(code, message)`, when the interface has its own */
  readonly body: unknown;
  /** the log's message for the refusal, or false when the route reported it itself */
  readonly report: string | false;

  constructor(code: WireErrorCode, message: string, options: ProtocolErrorOptions = {}) {
    super(message);
    const entry = WIRE_ERRORS[code];
    this.code = code;
    this.status = options.status ?? entry.status;
    this.section = options.section === undefined ? entry.section : options.section;
    this.headers = options.headers;
    this.record = options.record;
    this.body = options.body;
    this.report = options.report ?? message;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** The same refusal with more for the journal record (what the route knew by then). */
  withRecord(record: ProtocolRecord): ProtocolError {
    return new ProtocolError(this.code, this.message, {
      status: this.status,
      section: this.section,
      ...(this.headers ? { headers: { ...this.headers } } : {}),
      record: { ...this.record, ...record },
      ...(this.body === undefined ? {} : { body: this.body }),
      report: this.report,
    });
  }

  /** The same refusal, reported by the route itself (its own event): the core adds none. */
  reported(): ProtocolError {
    const copy = this.withRecord({});
    Object.defineProperty(copy, 'report', { value: false });
    return copy;
  }
}
