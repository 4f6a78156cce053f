import { readFile } from 'node:fs/promises';
import { SvcError, systemReason } from '../../errors.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import { PUSH_KIND_PREFIX } from '../../journal/record.js';
import { skipLine, type SkippedLines } from '../../journal/skipped-lines.js';

/**
 * Reads a recording written by `--record`: ExchangeRecord NDJSON, or HAR 1.2 whose entries
 * carry the journal's `_svc` extras (older HARs: the `comment` "iface direction kind attempt N").
 * A cut last line is passed over and counted in `skipped`.
 * @example const records = await readRecording('session.ndjson');
 */
export async function readRecording(
  path: string,
  skipped: SkippedLines = { skipped: 0 },
): Promise<ExchangeRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SvcError('SVC_E_READ', `Could not read ${path}: ${systemReason(error)}.`);
  }
  if (text.slice(0, 8192).includes('\u0000'))
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not read ${path}: it is binary (NUL bytes), not an NDJSON or HAR recording.`,
      'Record with `svc-cli platform --record session.ndjson` (or listen --record).',
    );
  return path.toLowerCase().endsWith('.har') || /^\{\s*"log"/.test(text.trimStart())
    ? parseHar(text, path)
    : parseNdjson(text, path, skipped);
}

/**
 * One ExchangeRecord per line; blank lines skipped; a torn last line (a crash) is passed over
 * and counted in `skipped`.
 */
export function parseNdjson(
  text: string,
  file = 'recording',
  skipped: SkippedLines = { skipped: 0 },
): ExchangeRecord[] {
  const lines = text.split('\n');
  const records: ExchangeRecord[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // a torn last line (a crash mid-write) is passed over, unless it is all there is
      const last = lines.slice(i + 1).every((rest) => rest.trim() === '');
      if (last && records.length > 0) {
        skipLine(skipped, i + 1);
        break;
      }
      throw new SvcError('SVC_E_RECORDING', `Could not read ${file}: line ${i + 1} is not JSON.`);
    }
    const record = value as Partial<ExchangeRecord>;
    if (record.type !== 'exchange' || !record.request || !record.iface) {
      throw new SvcError(
        'SVC_E_RECORDING',
        `Could not read ${file}: line ${i + 1} is not an exchange record.`,
        'Record with `svc-cli platform --record session.ndjson` (or listen --record).',
      );
    }
    records.push(record as ExchangeRecord);
  }
  return records;
}

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
export function parseHar(text: string, file = 'recording.har'): ExchangeRecord[] {
  let har: { log?: { entries?: HarEntry[] } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    throw new SvcError('SVC_E_RECORDING', `Could not read ${file}: ${systemReason(error)}.`);
  }
  const entries = har.log?.entries;
  if (!Array.isArray(entries))
    throw new SvcError('SVC_E_RECORDING', `Could not read ${file}: no log.entries (HAR 1.2).`);
  return entries.map((entry, i): ExchangeRecord => {
    const svc = entry._svc ?? {};
    const [iface, direction, kind, , attempt] = (entry.comment ?? '').split(' ');
    const pushKind = svc.kind ?? kind;
    // an event pushed to a widget page (har.ts): its data back as the body, and no answer
    const push = pushKind !== undefined && pushKind.startsWith(PUSH_KIND_PREFIX);
    const pushed = push ? dataOfFrame(entry.response?.content?.text) : undefined;
    const status = push ? 0 : (entry.response?.status ?? 0);
    return {
      type: 'exchange',
      seq: svc.seq ?? i + 1,
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
  });
}
