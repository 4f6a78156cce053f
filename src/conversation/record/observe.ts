/**
 * What a recording shows, aggregated per payload kind while it is read (`record diff`,
 * `record profile`): the fields and the forms of their values, status codes, the headers
 * that change how a peer reads an answer, redelivery series (attempts, offsets, how they
 * ended), timed-out attempts, and the order of kinds across interfaces. Memory grows with
 * the number of kinds and field paths, not with the number of exchanges.
 */
import type { Readable } from 'node:stream';
import { messageKeyOf } from '../../faults/plan.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import { isPushRecord } from '../../journal/record.js';
import {
  exchangeTimes,
  platformDirection,
  platformFailureReason,
  platformResponse,
} from '../../journal/platform-view.js';
import { recordingBatches, shownInput } from '../../journal/read-input.js';
import { placeForeignEntry } from './har-foreign.js';
import { noteRecord, skipLine, type SkippedLines } from '../../journal/skipped-lines.js';
import { assertJournal, assertRecorded } from '../../trace/not-a-journal.js';
import { formOf } from '../../contract/value-form.js';
import { CHANNEL_DELIVERY_POLICY } from '../../contract/timing.js';

/** value -> how many times it was seen */
export type Tally = Record<string, number>;

/** A running figure: count, extremes and mean, in protocol milliseconds. */
export interface Figure {
  n: number;
  min: number;
  max: number;
  mean: number;
}

/** Redelivery series of one kind (records that carry an attempt number). */
export interface SeriesObservation {
  /** attempts per message -> messages */
  attempts: Tally;
  /** `accepted` or `gave-up` -> messages */
  outcomes: Tally;
  /** attempt number (2, 3, ...) -> its start after the first attempt's start */
  offsets: Record<string, Figure>;
  /**
   * series that were never accepted: from the first attempt's start to the give-up, the later
   * of the last attempt's end and the end of its wait (`gaveUpAfter` below)
   */
  gaveUpAfter?: Figure;
}

export interface KindObservation {
  kind: string;
  iface: ExchangeRecord['iface'];
  direction: ExchangeRecord['direction'];
  count: number;
  /** request body: JSON path -> value form -> count */
  fields: Record<string, Tally>;
  /** body of the 2xx answers: JSON path -> value form -> count */
  responseFields: Record<string, Tally>;
  /**
   * body of the other answers (4xx, 5xx), apart: a field only an error answer has is not a
   * field of the success answer that happens to be left out now and then
   */
  errorResponseFields: Record<string, Tally>;
  /** answers by outcome: `success` a 2xx status, `error` any other */
  answered: { success: number; error: number };
  /**
   * the 2xx answers that tell the sender it failed (spec 7): a top-level `error` object (the
   * integrator's refusal, spec 4.2, 7.1; the bot interface's error body, 7.2), or a widget
   * visitor's failure answer (`{result: 'fail'}`, spec 7.3; the widget transport's
   * `{ok: false, error}`)
   */
  failedAnswers: number;
  /** HTTP status, or `no answer: <reason>` -> count */
  statuses: Tally;
  headers: {
    requestContentType: Tally;
    responseContentType: Tally;
    /** `chunked` or `content-length` */
    transfer: Tally;
    /** the answer's Keep-Alive header, `none` when it has none */
    keepAlive: Tally;
  };
  /** attempts that ended in a timeout: how long the caller waited */
  timeouts?: Figure;
  series?: SeriesObservation;
}

export interface RecordingObservation {
  files: string[];
  /** exchanges read (control API calls of the simulator are not counted: no platform has them) */
  records: number;
  kinds: Record<string, KindObservation>;
  /** `a -> b`, consecutive exchanges on different interfaces -> count */
  order: Tally;
  /**
   * records only svc-cli's simulator makes (its control API `/_sim/...`, an in-process
   * replay's `*.in-process.invalid` hosts), when there were any: no real platform's recording
   * has them, so a profile learned from it is the simulator's own
   */
  simulatorRecords?: number;
}

/** A record of svc-cli's simulator: its control API, or an exchange of an in-process replay. */
function isSimulatorRecord(record: ExchangeRecord): boolean {
  // a substring test: this runs on every line of a recording
  return record.iface === 'control' || record.request.url.includes('.in-process.invalid');
}

/** Distinct field paths kept per kind: a body with generated keys must not grow without end. */
const MAX_PATHS = 400;
/** Open redelivery series remembered at once; the oldest is closed beyond it. */
const MAX_OPEN_SERIES = 10_000;
const MAX_DEPTH = 8;
/** The child key standing for an array's items (no JSON key a body would carry). */
const ITEM = '\u0000';
/** Parent paths whose joined children are remembered (all kinds together). */
const MAX_CHILD_PATHS = 5000;
const MAX_ITEMS = 20;

export { formOf };

function bump(tally: Tally, key: string, by = 1): void {
  tally[key] = (tally[key] ?? 0) + by;
}

function addFigure(figure: Figure | undefined, value: number): Figure {
  if (!figure) return { n: 1, min: value, max: value, mean: value };
  figure.n += 1;
  figure.min = Math.min(figure.min, value);
  figure.max = Math.max(figure.max, value);
  figure.mean += (value - figure.mean) / figure.n;
  return figure;
}

/**
 * The path of a child field, joined once: the same few hundred paths come in every body, and
 * a joined string per field per record was a tenth of a diff's time in the collector.
 */
const childPaths = new Map<string, Map<string, string>>();
function childPath(path: string, key: string): string {
  let children = childPaths.get(path);
  if (!children) {
    if (childPaths.size >= MAX_CHILD_PATHS) childPaths.clear();
    children = new Map();
    childPaths.set(path, children);
  }
  let joined = children.get(key);
  if (joined === undefined) {
    joined = key === ITEM ? `${path}[]` : path === '' ? key : `${path}.${key}`;
    if (children.size < MAX_PATHS) children.set(key, joined);
  }
  return joined;
}

function walk(value: unknown, path: string, key: string, out: Record<string, Tally>, depth = 0) {
  if (path !== '') {
    const tally = out[path];
    if (tally) bump(tally, formOf(value, key));
    else if (Object.keys(out).length < MAX_PATHS) out[path] = { [formOf(value, key)]: 1 };
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const item = childPath(path, ITEM);
    const n = Math.min(value.length, MAX_ITEMS);
    for (let i = 0; i < n; i++) walk(value[i], item, key, out, depth + 1);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const k in object) walk(object[k], childPath(path, k), k, out, depth + 1);
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON media type: application/json, or a structured syntax suffix (`+json`). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/;
/** A charset parameter naming UTF-8, quoted or not. */
const UTF8_CHARSET = /^charset="?utf-?8"?$/;

/**
 * A Content-Type as `record diff` compares it: lower case, without spaces, and for JSON
 * without a charset=utf-8 parameter: JSON is UTF-8, so `application/json` from a real
 * platform and `application/json; charset=utf-8` from the simulator say the same. Another
 * charset, or another media type, is kept and still differs.
 */
function contentType(headers: Record<string, string> | undefined): string | undefined {
  const value = headers?.['content-type']?.toLowerCase().replace(/\s+/g, '');
  if (value === undefined) return undefined;
  const [type = '', ...params] = value.split(';');
  if (!JSON_TYPE.test(type)) return value;
  return [type, ...params.filter((param) => !UTF8_CHARSET.test(param))].join(';');
}

interface OpenSeries {
  kind: string;
  firstStart: number;
  lastStart: number;
  lastEnd: number;
  attempts: number;
  accepted: boolean;
}

/**
 * When a series that was never accepted gave up, after its first attempt's start. The wire
 * does not show the give-up (the agent's error, the hand-over), and a platform announces it no
 * earlier than its last attempt's wait ends (attempts at 0, 3, 6 s: the error at 9 s, spec 8),
 * even when that attempt was refused at once: so the later of the last attempt's end and its
 * start plus the wait an attempt was seen to time out after (else the spec's 3 s).
 */
function gaveUpAfter(series: OpenSeries, timeouts: Figure | undefined): number {
  const wait = timeouts?.mean ?? CHANNEL_DELIVERY_POLICY.attemptTimeoutMs;
  return Math.max(series.lastEnd, series.lastStart + wait) - series.firstStart;
}

/**
 * A record's acceptance as the sender judged it (its notes), else a 2xx answer the platform
 * had (not one a peer wrote after the platform's wait ran out, spec 8).
 */
function acceptedOf(record: ExchangeRecord): boolean {
  if (record.notes?.includes('accepted')) return true;
  if (record.notes?.some((n) => n.startsWith('rejected'))) return false;
  const status = platformResponse(record)?.status;
  return status !== undefined && status >= 200 && status < 300;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * True for a 2xx answer's body that tells the sender it failed: an `error` object (spec 4.2
 * "200 with {result} or {error:{code,message}}", 7.1, 7.2), or on the widget channel the
 * page's failure result (spec 7.3 `{result:'fail'}` with its reason or error; the widget
 * transport's `{ok: false, error}`, which the page script turns into it).
 */
function toldFailure(iface: ExchangeRecord['iface'], answer: unknown): boolean {
  if (!isObject(answer)) return false;
  if (isObject(answer.error)) return true;
  return iface === 'widget' && (answer.result === 'fail' || answer.ok === false);
}

/** An answer's body (by its outcome), Content-Type and Keep-Alive. */
function addAnswer(obs: KindObservation, response: NonNullable<ExchangeRecord['response']>): void {
  const success = response.status >= 200 && response.status < 300;
  obs.answered[success ? 'success' : 'error'] += 1;
  const answer = parseJson(response.body);
  if (success && toldFailure(obs.iface, answer)) obs.failedAnswers += 1;
  if (answer !== undefined)
    walk(answer, '', '', success ? obs.responseFields : obs.errorResponseFields);
  const resType = contentType(response.headers);
  if (resType) bump(obs.headers.responseContentType, resType);
  if (response.headers && Object.keys(response.headers).length > 0)
    bump(obs.headers.keepAlive, response.headers['keep-alive'] ?? 'none');
}

/** The open redelivery series of an observer and how one is closed (its outcome tallied). */
interface SeriesTracker {
  open: Map<string, OpenSeries>;
  close: (key: string, series: OpenSeries) => void;
}

/** One attempt of a redelivery series (a record with an attempt number) into its series. */
function addAttempt(
  tracker: SeriesTracker,
  record: ExchangeRecord,
  obs: KindObservation,
  key: string,
): void {
  const { open, close } = tracker;
  if (record.failure?.reason === 'interrupted') {
    // the sender stopped (the platform or the proxy closed, a replay's conversation ended):
    // the series was cut short, neither accepted nor given up, so it says nothing of the
    // attempts or the give-up; taken as a give-up, an AGENT_JOINED cut at its first attempt
    // taught a hand-over of one attempt's wait beside the bot's two
    open.delete(key);
    return;
  }
  // on the recorder's clock: a platform stamps an attempt when its reply came, the peer that
  // took it (listen, hook-target, bot-sim) when it came in
  const { startMs: start, endMs: end } = exchangeTimes(record);
  let series = open.get(key);
  if (series && record.attempt === 1) {
    close(key, series);
    series = undefined;
  }
  if (!series) {
    series = {
      kind: obs.kind,
      firstStart: start,
      lastStart: start,
      lastEnd: end,
      attempts: 0,
      accepted: false,
    };
    open.set(key, series);
    if (open.size > MAX_OPEN_SERIES) {
      const [oldKey, oldest] = open.entries().next().value as [string, OpenSeries];
      close(oldKey, oldest);
    }
  }
  series.attempts += 1;
  series.lastStart = start;
  series.lastEnd = end;
  if (series.attempts > 1) {
    const s = (obs.series ??= { attempts: {}, outcomes: {}, offsets: {} });
    s.offsets[String(series.attempts)] = addFigure(
      s.offsets[String(series.attempts)],
      start - series.firstStart,
    );
  }
  if (acceptedOf(record)) {
    series.accepted = true;
    close(key, series);
  }
}

/** The aggregation, fed one record at a time. */
export interface Observer {
  add(record: ExchangeRecord): void;
  /** Closes the open series and gives the observation. */
  finish(): RecordingObservation;
}

/** @example const o = createObserver(['a.ndjson']); o.add(record); o.finish().kinds */
export function createObserver(files: string[]): Observer {
  const kinds: Record<string, KindObservation> = {};
  const order: Tally = {};
  const open = new Map<string, OpenSeries>();
  let records = 0;
  let simulatorRecords = 0;
  // by run: conversations replayed at once append to one file, their exchanges interleaved
  const lastOf = new Map<string, { iface: string; kind: string }>();

  const close = (key: string, series: OpenSeries) => {
    open.delete(key);
    const obs = kinds[series.kind];
    if (!obs) return;
    const s = (obs.series ??= { attempts: {}, outcomes: {}, offsets: {} });
    bump(s.attempts, String(series.attempts));
    bump(s.outcomes, series.accepted ? 'accepted' : 'gave-up');
    if (!series.accepted)
      s.gaveUpAfter = addFigure(s.gaveUpAfter, gaveUpAfter(series, obs.timeouts));
  };

  const tracker: SeriesTracker = { open, close };

  return {
    add(record) {
      if (isSimulatorRecord(record)) simulatorRecords += 1;
      // the control API is the simulator's own; a push to a widget page has no answer to read
      if (record.iface === 'control' || isPushRecord(record)) return;
      records += 1;
      // as the platform saw it: a recording of listen, hook-target or bot-sim has it reversed
      const direction = platformDirection(record);
      const kind = record.kind ?? `${record.iface}.${direction}.unknown`;
      const obs = (kinds[kind] ??= {
        kind,
        iface: record.iface,
        direction,
        count: 0,
        fields: {},
        responseFields: {},
        errorResponseFields: {},
        answered: { success: 0, error: 0 },
        failedAnswers: 0,
        statuses: {},
        headers: { requestContentType: {}, responseContentType: {}, transfer: {}, keepAlive: {} },
      });
      obs.count += 1;
      const body = parseJson(record.request.body);
      if (body !== undefined) walk(body, '', '', obs.fields);
      // as the platform had it: a peer's reply that came after its wait is the timeout it saw
      const response = platformResponse(record);
      bump(
        obs.statuses,
        response
          ? String(response.status)
          : `no answer: ${platformFailureReason(record) ?? 'unknown'}`,
      );
      const reqType = contentType(record.request.headers);
      if (reqType) bump(obs.headers.requestContentType, reqType);
      const transfer = record.notes?.find((n) => n.startsWith('transfer: '))?.slice(10);
      const chunked =
        transfer ?? (record.request.headers?.['transfer-encoding'] ? 'chunked' : undefined);
      bump(obs.headers.transfer, chunked ?? 'content-length');
      if (response) addAnswer(obs, response);
      if (record.failure?.reason === 'timeout' && record.durationMs !== undefined)
        obs.timeouts = addFigure(obs.timeouts, record.durationMs);
      if (record.attempt !== undefined)
        addAttempt(
          tracker,
          record,
          obs,
          `${kind} ${messageKeyOf(body, record.request.body ?? '')}`,
        );
      const run = record.run ?? '';
      const last = lastOf.get(run);
      if (last && last.iface !== record.iface) bump(order, `${last.kind} -> ${kind}`);
      lastOf.delete(run); // the newest run last, so the oldest goes first past the bound
      lastOf.set(run, { iface: record.iface, kind });
      if (lastOf.size > MAX_OPEN_SERIES) lastOf.delete(lastOf.keys().next().value as string);
    },
    finish() {
      for (const [key, series] of [...open]) close(key, series);
      return {
        files,
        records,
        kinds,
        order,
        ...(simulatorRecords > 0 ? { simulatorRecords } : {}),
      };
    },
  };
}

/**
 * Reads recordings through the one reader of recordings (`src/journal/read-input.ts`: NDJSON a
 * line at a time, a HAR or a saved `GET /_sim/journal` answer whole, `-` for stdin) into one
 * observation. A line that is not a journal record (the partial last line of a recording cut
 * short) is passed over and counted in `skipped[i]` for `paths[i]`, as `trace` reads a journal;
 * a file with no record in it is an input error.
 * @example const seen = await observeRecordings(['real.ndjson']);
 */
export async function observeRecordings(
  paths: string[],
  skipped: SkippedLines[] = [],
  stdin?: Readable,
): Promise<RecordingObservation> {
  const observer = createObserver(paths);
  for (const [i, path] of paths.entries()) {
    const lines = (skipped[i] ??= { skipped: 0 });
    let records = 0;
    // a chunk's records at a time, with no await between them (millions of records)
    for await (const batch of recordingBatches({
      path,
      ...(stdin ? { stdin } : {}),
      placeForeign: () => placeForeignEntry,
    })) {
      for (const { value, n } of batch) {
        if (!isExchange(value)) {
          skipLine(lines, n);
          continue;
        }
        noteRecord(lines);
        records++;
        observer.add(value);
      }
    }
    // a README is a wrong argument, and an empty recording was never written: "no
    // differences" or a profile of nothing would pass a drift job that checked nothing
    // (trace and report refuse both alike)
    const shown = shownInput(path);
    assertJournal(shown, { records, skipped: lines.skipped }, [{ shown, path }], 'give that');
    assertRecorded(shown, records);
  }
  return observer.finish();
}

const isExchange = (value: unknown): value is ExchangeRecord => {
  const record = value as Partial<ExchangeRecord> | null;
  return (
    record !== null &&
    typeof record === 'object' &&
    record.type === 'exchange' &&
    record.request !== undefined &&
    record.iface !== undefined
  );
};
