import { SvcError, systemReason } from '../errors.js';
import type { ExchangeRecord } from './journal.js';
import { PUSH_KIND_PREFIX } from './record.js';

/*
 * A HAR 1.2 file read back as the journal's records: what `--record session.har` wrote
 * (har.ts), its `_svc` extras first, an older HAR's entry `comment` as a fallback. Every
 * reader of recordings takes it (record, coverage, trace, report). An entry with neither (a
 * HAR from a browser's DevTools or a debugging proxy) is placed by its URL, method and body
 * by the `place` its reader hands in (`src/conversation/record/har-foreign.ts`: the journal
 * knows no contract); one that is none of the contract's exchanges is left out.
 */

/**
 * The note on a record placed from a foreign HAR entry: like a proxy's, it was seen between
 * real parties, so no chat id the platform gave is in it (trace numbers a customer's chat).
 */
export const FOREIGN_NOTE = 'foreign HAR';

/** Where a foreign HAR entry belongs: interface, direction as a platform records it, kind. */
export type ForeignPlace = Pick<ExchangeRecord, 'iface' | 'direction' | 'kind'>;

/** Places an entry svc-cli did not write by its request, or undefined: none of the contract's. */
export type PlaceForeignEntry = (
  method: string,
  url: string,
  body: string | undefined,
) => ForeignPlace | undefined;

interface HarEntry {
  startedDateTime?: string;
  time?: number;
  comment?: string;
  request?: {
    method?: string;
    url?: string;
    headers?: Array<{ name: string; value: string }>;
    postData?: { text?: string };
  };
  response?: {
    status?: number;
    headers?: Array<{ name: string; value: string }>;
    content?: { text?: string };
  };
  _svc?: Partial<ExchangeRecord> & { seq?: number };
}

const headersOf = (
  list: Array<{ name: string; value: string }> | undefined,
): Record<string, string> =>
  Object.fromEntries((list ?? []).map((h) => [h.name.toLowerCase(), h.value]));

/** The `data:` of one server-sent event frame (`id: 7\ndata: {...}\n\n`). */
function dataOfFrame(frame: string | undefined): string | undefined {
  const lines = (frame ?? '').split('\n').filter((l) => l.startsWith('data:'));
  return lines.length === 0 ? undefined : lines.map((l) => l.slice(5).replace(/^ /, '')).join('\n');
}

/** HAR 1.2 -> ExchangeRecords (`_svc` first, the comment as a fallback). */
export function parseHar(
  text: string,
  file = 'recording.har',
  placeOf?: PlaceForeignEntry,
): ExchangeRecord[] {
  let har: { log?: { entries?: HarEntry[] } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    // a HAR is one JSON document, rewritten whole as the recorder goes: a cut one (a copy
    // taken mid-write, a full disk) ends early
    const cut = /end of JSON input|Unterminated/i.test(systemReason(error));
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not read ${file}: ${cut ? 'the HAR ends before its JSON does (cut off?)' : `it is not a HAR: ${systemReason(error)}`}.`,
      'A HAR is one JSON document written whole by --record <file>.har; record again, or record to .ndjson, whose lines survive a cut.',
    );
  }
  const entries = har.log?.entries;
  if (!Array.isArray(entries))
    throw new SvcError('SVC_E_RECORDING', `Could not read ${file}: no log.entries (HAR 1.2).`);
  // protocol time of a foreign entry: since the first request started, as a journal counts it
  const starts = entries.map((e) => Date.parse(e.startedDateTime ?? ''));
  const first = Math.min(...starts.filter((t) => Number.isFinite(t)));
  const records: ExchangeRecord[] = [];
  let foreign = 0;
  for (const [i, entry] of entries.entries()) {
    let place: ForeignPlace | undefined;
    if (placeOf !== undefined && !writtenBySvc(entry)) {
      foreign += 1;
      place = placeOf(
        entry.request?.method ?? 'GET',
        entry.request?.url ?? '',
        entry.request?.postData?.text,
      );
      if (place === undefined) continue;
    }
    const start = starts[i] ?? NaN;
    const time = typeof entry.time === 'number' && entry.time >= 0 ? entry.time : 0;
    records.push(
      recordOf(
        entry,
        i,
        place && { ...place, started: Number.isFinite(start) ? start - first : 0, time },
      ),
    );
  }
  if (foreign > 0 && foreign === entries.length && records.length === 0)
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not read ${file}: this HAR was not written by svc-cli (no entry has its _svc extras or comment), and none of its ${entries.length} entries is an exchange of the contract (a payload svc-cli knows, or a GET .../status).`,
      'Record through svc-cli (proxy, platform or listen with --record <file>.ndjson), or export a HAR of the platform and integrator traffic only.',
    );
  return records;
}

/** An entry written by har.ts: its `_svc` extras, or an older comment `iface direction kind`. */
function writtenBySvc(entry: HarEntry): boolean {
  if (entry._svc !== undefined) return true;
  const [iface, direction] = (entry.comment ?? '').split(' ');
  return (
    ['channel', 'bot', 'hook', 'widget', 'control'].includes(iface ?? '') &&
    (direction === 'in' || direction === 'out')
  );
}

function recordOf(
  entry: HarEntry,
  i: number,
  foreign: (ForeignPlace & { started: number; time: number }) | undefined,
): ExchangeRecord {
  {
    const svc: Partial<ExchangeRecord> & { seq?: number } = foreign
      ? {
          iface: foreign.iface,
          direction: foreign.direction,
          ...(foreign.kind === undefined ? {} : { kind: foreign.kind }),
          // the end of the exchange, and how long it took: where it started
          protocolMs: foreign.started + foreign.time,
          durationMs: foreign.time,
          notes: [FOREIGN_NOTE],
        }
      : (entry._svc ?? {});
    const [iface, direction, kind, , attempt] = foreign ? [] : (entry.comment ?? '').split(' ');
    const pushKind = svc.kind ?? kind;
    // an event pushed to a widget page (har.ts): its data back as the body, and no answer
    const push = pushKind !== undefined && pushKind.startsWith(PUSH_KIND_PREFIX);
    const pushed = push ? dataOfFrame(entry.response?.content?.text) : undefined;
    const status = push ? 0 : (entry.response?.status ?? 0);
    return {
      type: 'exchange',
      seq: svc.seq ?? i + 1,
      // the journal's run and the chat: what trace and report group a conversation by
      ...(svc.run === undefined ? {} : { run: svc.run }),
      ...(svc.chat === undefined ? {} : { chat: svc.chat }),
      ...(svc.cause === undefined ? {} : { cause: svc.cause }),
      at: entry.startedDateTime ?? new Date(0).toISOString(),
      protocolMs: svc.protocolMs ?? 0,
      iface: svc.iface ?? ((iface as ExchangeRecord['iface'] | undefined) || 'channel'),
      direction: svc.direction ?? (direction === 'out' ? 'out' : 'in'),
      ...((svc.kind ?? kind) ? { kind: svc.kind ?? kind } : {}),
      ...((svc.attempt ?? (attempt ? Number(attempt) : undefined)) !== undefined
        ? { attempt: svc.attempt ?? Number(attempt) }
        : {}),
      request: {
        method: entry.request?.method ?? 'GET',
        url: entry.request?.url ?? '',
        headers: headersOf(entry.request?.headers),
        ...(pushed !== undefined
          ? { body: pushed }
          : entry.request?.postData?.text === undefined
            ? {}
            : { body: entry.request.postData.text }),
      },
      ...(status === 0
        ? {}
        : {
            response: {
              status,
              headers: headersOf(entry.response?.headers),
              body: entry.response?.content?.text ?? '',
            },
          }),
      // the attempt's protocol duration: where it started (record diff's offsets, timeouts)
      ...(svc.durationMs === undefined ? {} : { durationMs: svc.durationMs }),
      ...(svc.failure ? { failure: svc.failure } : {}),
      ...(svc.verdict ? { verdict: svc.verdict } : {}),
      ...(svc.fault ? { fault: svc.fault } : {}),
      ...(svc.notes ? { notes: svc.notes } : {}),
    };
  }
}
