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

/**
 * The journal step of the request pipeline (src/http/pipeline.ts): after the rest of the
 * pipeline has answered, records the exchange `recordOf` reads from the context (nothing when
 * it gives none: a stream, a quiet read). Built once per server side; `recordOf` is not called
 * without a journal unless `numbered` wants to hear of the record (its seq: undefined without
 * a journal), as the proxy numbers what it saw.
 * @example compose([journalStep((ctx) => ctx.core.journal, platformRecord), bodyStep(...)], handle)
 */
/**
 * A journal that stores each exchange through `record` (a tap, a rewrite) and is `inner`
 * for the rest: the same records, count, file and flushing.
 * @example const tapped = throughJournal(inner, (input) => { seen(input); return recordExchange(inner, input); });
 */
export function throughJournal(inner: Journal, record: (input: ExchangeInput) => number): Journal {
  return {
    record,
    run: inner.run,
    entries: (since) => inner.entries(since),
    get count() {
      return inner.count;
    },
    get recording() {
      return inner.recording;
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}

export function journalStep<C>(
  journalOf: (ctx: C) => Journal | undefined,
  recordOf: (ctx: C) => ExchangeInput | undefined,
  numbered?: (ctx: C, seq: number | undefined) => void,
): (ctx: C, next: (ctx: C) => void | Promise<void>) => void | Promise<void> {
  const write = (ctx: C): void => {
    const journal = journalOf(ctx);
    if (!journal && !numbered) return;
    const input = recordOf(ctx);
    if (!input) return;
    const seq = recordExchange(journal, input);
    numbered?.(ctx, seq);
  };
  return (ctx, next) => {
    const done = next(ctx);
    if (done) return done.then(() => write(ctx));
    write(ctx);
  };
}
