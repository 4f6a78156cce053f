import { readFile } from 'node:fs/promises';
import { SvcError, systemReason } from '../../errors.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import { parseHar } from '../../journal/har-read.js';
import { placeForeignEntry } from './har-foreign.js';
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
    ? parseHar(text, path, placeForeignEntry)
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
