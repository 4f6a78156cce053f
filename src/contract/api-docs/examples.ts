/**
 * Examples for the API documents: the valid samples of fixtures/payloads (shipped with the
 * package), grouped by kind. A sample's kind comes from its sidecar or from detection, and
 * it is only used when zod agrees it is valid, so an example never contradicts its schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { detectKind } from '../detect.js';
import { validate } from '../validate.js';
import { packageFiles } from '../../package-files.js';

export interface PayloadExample {
  /** the sample's file name without `.valid.json` */
  name: string;
  /** path relative to the payloads folder, for the summary */
  file: string;
  value: unknown;
}

/** The files of a payloads folder, by their path relative to it (`/`-separated). */
interface Samples {
  files: string[];
  read(file: string): string | undefined;
}

function walk(dir: string, prefix = ''): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return []; // no samples: the documents simply carry no examples
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? walk(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** `dir` on disk, else this package's fixtures/payloads (assets in the single binary). */
function samplesIn(dir: string | undefined): Samples {
  if (dir !== undefined) {
    return {
      files: walk(dir),
      read(file) {
        try {
          return readFileSync(path.join(dir, file), 'utf8');
        } catch {
          return undefined;
        }
      },
    };
  }
  const own = packageFiles();
  const root = 'fixtures/payloads/';
  return {
    files: own.list(root).map((file) => file.slice(root.length)),
    read: (file) => own.read(`${root}${file}`),
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Valid samples by kind.
 * @example collectExamples().get('channel.customer.text')?.[0]?.value
 */
export function collectExamples(dir?: string): Map<string, PayloadExample[]> {
  const byKind = new Map<string, PayloadExample[]>();
  const samples = samplesIn(dir);
  for (const file of samples.files.filter((f) => f.endsWith('.valid.json')).sort()) {
    const value = parseJson(samples.read(file));
    if (value === undefined) continue;
    const sidecar = parseJson(samples.read(file.replace(/\.json$/, '.expect.json'))) as
      { kind?: unknown } | undefined;
    const kind = typeof sidecar?.kind === 'string' ? sidecar.kind : detectKind(value).kind;
    if (kind === undefined || !validate(kind, value).ok) continue;
    const list = byKind.get(kind) ?? [];
    list.push({ name: path.posix.basename(file).replace(/\.valid\.json$/, ''), file, value });
    byKind.set(kind, list);
  }
  return byKind;
}
