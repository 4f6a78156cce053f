/** The JSON Schema files of `svc-cli schema`: collected in memory or written one per kind. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toJsonSchema } from './json-schema.js';
import { KINDS } from './registry.js';
import { getKind } from './validate.js';

/** Every kind's schema (or one kind's), keyed by kind. */
export function collectSchemas(kind?: string): Record<string, Record<string, unknown>> {
  const names = kind === undefined ? [...KINDS.keys()] : [getKind(kind).name];
  return Object.fromEntries(names.map((name) => [name, toJsonSchema(name)]));
}

export interface WriteSchemasOptions {
  dir: string;
  cwd?: string;
  kind?: string;
}

/**
 * Writes `<kind>.schema.json` per kind; resolves to the files written (as given + name).
 * @example await writeSchemas({ dir: 'schemas' })
 */
export async function writeSchemas(options: WriteSchemasOptions): Promise<string[]> {
  const target = path.resolve(options.cwd ?? process.cwd(), options.dir);
  await mkdir(target, { recursive: true });
  const written: string[] = [];
  for (const [name, schema] of Object.entries(collectSchemas(options.kind))) {
    const file = path.join(options.dir, `${name}.schema.json`);
    await writeFile(
      path.join(target, `${name}.schema.json`),
      `${JSON.stringify(schema, null, 2)}\n`,
    );
    written.push(file);
  }
  return written;
}
