/**
 * The one place an exchange record is written. Every side that journals (the inbound
 * pipeline's journal step, every outbound sender, the journal wrappers) calls this, so
 * what a record is and when it is stamped is decided here and in the journal alone;
 * `test/unit/journal-call-sites.test.ts` fails on any other call of a journal's `record`.
 */
import type { ExchangeInput, Journal } from './journal.js';

/**
 * Records one exchange in `journal` (nothing without one); the fields are kept in the order
 * given (the readers of a recording see them so). Returns the record's seq.
 * @example recordExchange(options.journal, { protocolMs, iface: 'channel', direction: 'out', request });
 */
export function recordExchange(journal: Journal, input: ExchangeInput): number;
export function recordExchange(
  journal: Journal | undefined,
  input: ExchangeInput,
): number | undefined;
export function recordExchange(
  journal: Journal | undefined,
  input: ExchangeInput,
): number | undefined {
  return journal?.record(input);
}
