/** The JSON Schema files of `svc-cli schema`: collected in memory or written one per kind. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SvcError, systemReason } from '../errors.js';
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
 * Writes `<kind>.schema.json` per kind into the folder `dir`; one kind (`kind`) into the file
 * `dir` when it ends in `.json`. Resolves to the files written (as given + name); a folder or
 * file that cannot be written is an input error (SVC_E_WRITE, exit 2), never a crash.
 * @example await writeSchemas({ dir: 'schemas' })
 */
export async function writeSchemas(options: WriteSchemasOptions): Promise<string[]> {
  const schemas = Object.entries(collectSchemas(options.kind));
  if (options.kind !== undefined && options.dir.endsWith('.json')) {
    const [, schema] = schemas[0]!;
    await writeInto(options, path.dirname(options.dir), [
      [path.basename(options.dir), `${JSON.stringify(schema, null, 2)}\n`],
    ]);
    return [options.dir];
  }
  await writeInto(
    options,
    options.dir,
    schemas.map(([name, schema]) => [
      `${name}.schema.json`,
      `${JSON.stringify(schema, null, 2)}\n`,
    ]),
  );
  return schemas.map(([name]) => path.join(options.dir, `${name}.schema.json`));
}

/**
 * Writes files into a folder (made when missing), relative to `cwd`; a failure names the
 * folder and why.
 * @example await writeInto({ cwd }, 'schemas', [['a.json', '{}']])
 */
export async function writeInto(
  options: { cwd?: string },
  dir: string,
  files: ReadonlyArray<readonly [name: string, text: string]>,
): Promise<void> {
  const target = path.resolve(options.cwd ?? process.cwd(), dir);
  try {
    await mkdir(target, { recursive: true });
    for (const [name, text] of files) await writeFile(path.join(target, name), text);
  } catch (error) {
    throw new SvcError(
      'SVC_E_WRITE',
      `Could not write into ${dir}: ${systemReason(error)}.`,
      'Give --out a folder that can be made (or a .json file for one --kind).',
    );
  }
}
