/**
 * Examples for the API documents: the valid samples of fixtures/payloads (shipped with the
 * package), grouped by kind. A sample's kind comes from its sidecar or from detection, and
 * it is only used when zod agrees it is valid, so an example never contradicts its schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectKind } from '../detect.js';
import { validate } from '../validate.js';

export interface PayloadExample {
  /** the sample's file name without `.valid.json` */
  name: string;
  /** path relative to the payloads folder, for the summary */
  file: string;
  value: unknown;
}

/** fixtures/payloads of this package (dist/contract/api-docs -> package root). */
export const DEFAULT_PAYLOADS_DIR = fileURLToPath(
  new URL('../../../fixtures/payloads/', import.meta.url),
);

function listValid(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no samples shipped: the documents simply carry no examples
  }
  return entries
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return listValid(full);
      return e.name.endsWith('.valid.json') ? [full] : [];
    })
    .sort();
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Valid samples by kind.
 * @example collectExamples().get('channel.customer.text')?.[0]?.value
 */
export function collectExamples(dir: string = DEFAULT_PAYLOADS_DIR): Map<string, PayloadExample[]> {
  const byKind = new Map<string, PayloadExample[]>();
  for (const file of listValid(dir)) {
    const value = readJson(file);
    if (value === undefined) continue;
    const sidecar = readJson(file.replace(/\.json$/, '.expect.json')) as
      { kind?: unknown } | undefined;
    const kind = typeof sidecar?.kind === 'string' ? sidecar.kind : detectKind(value).kind;
    if (kind === undefined || !validate(kind, value).ok) continue;
    const list = byKind.get(kind) ?? [];
    list.push({
      name: path.basename(file).replace(/\.valid\.json$/, ''),
      file: path.relative(dir, file).split(path.sep).join('/'),
      value,
    });
    byKind.set(kind, list);
  }
  return byKind;
}
