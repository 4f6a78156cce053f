/**
 * What `load --report` keeps of a run for the report's swimlanes: the exchanges of a sample of
 * its conversations, journaled to an NDJSON file as the simulator's own journal would hold them
 * (the report streams that file back, src/cli/commands/report-write.ts). Memory stays bounded:
 * the journal writes as it goes and keeps nothing (`keep: 0`), and the file stops growing at
 * `maxRecords`. A run without `--report` makes none, and its series take no extra step.
 */
import { detectKind } from '../contract/detect.js';
import {
  createJournal,
  recordExchange,
  throughJournal,
  type ExchangeInput,
  type Journal,
} from '../journal/index.js';

export interface LoadTraceOptions {
  /** the NDJSON file (a temporary one: the report is written from it, then it is removed) */
  file: string;
  /** conversations recorded: the first this many (default 50) */
  conversations?: number;
  /** exchanges recorded in all; past it, new series are not recorded (default 100k) */
  maxRecords?: number;
  /**
   * the generator sent each payload to the platform (load channel: the customer's side): record
   * it as the platform served it (`in`), so the report draws the arrow from the customer's lane
   */
  inbound?: boolean;
}

/** The journal and conversation a sampled series records into. */
export interface TracedSeries {
  journal: Journal;
  /** the chat the series belongs to (the conversation of the report) */
  chat: number;
  /** the contract kind of the payload (read once per sampled series) */
  kind?: string;
}

export interface LoadTraceFigures {
  /** conversations the run reached */
  conversations: number;
  /** conversations recorded */
  sampled: number;
  /** exchanges recorded */
  records: number;
  /** series not recorded because the file held `maxRecords` */
  capped: number;
}

export interface LoadTrace {
  /**
   * The series of payload body `body` in conversation `rank` (0-based, dense) and chat `chat`:
   * recorded when the conversation is sampled and the file has room, else undefined.
   */
  series(rank: number, chat: number, body: string): TracedSeries | undefined;
  readonly figures: LoadTraceFigures;
  /** the file, with every record written */
  close(): void;
}

const kindOf = (body: string): string | undefined => {
  try {
    return detectKind(JSON.parse(body) as unknown).kind;
  } catch {
    return undefined;
  }
};

/**
 * A journal on the same file that records each exchange as the platform served it: `in`,
 * stamped when the request came in (an `out` attempt is stamped when its reply came).
 */
function asServed(inner: Journal): Journal {
  return throughJournal(inner, (input: ExchangeInput) =>
    recordExchange(inner, {
      ...input,
      direction: 'in',
      protocolMs: input.protocolMs - (input.durationMs ?? 0),
    }),
  );
}

/**
 * The sampled journal of a load run.
 * @example const trace = createLoadTrace({ file: join(dir, 'load.ndjson') });
 */
export function createLoadTrace(options: LoadTraceOptions): LoadTrace {
  const sample = options.conversations ?? 50;
  const maxRecords = options.maxRecords ?? 100_000;
  const file = createJournal({ file: options.file, keep: 0 });
  const journal = options.inbound ? asServed(file) : file;
  const figures: LoadTraceFigures = { conversations: 0, sampled: 0, records: 0, capped: 0 };
  return {
    series(rank, chat, body) {
      if (rank >= figures.conversations) figures.conversations = rank + 1;
      if (rank >= sample) return undefined;
      figures.sampled = Math.max(figures.sampled, rank + 1);
      if (file.count >= maxRecords) {
        figures.capped++;
        return undefined;
      }
      const kind = kindOf(body);
      return { journal, chat, ...(kind === undefined ? {} : { kind }) };
    },
    get figures() {
      return { ...figures, records: file.count };
    },
    close: () => file.close(),
  };
}
