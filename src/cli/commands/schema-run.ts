import { basename, dirname, join } from 'node:path';
import type { CliContext } from '../context.js';
import { schemaOptions } from './schema-options.js';
import { SvcError } from '../../errors.js';
import type { Output } from '../render/output.js';

/** `svc-cli schema`: JSON Schema (draft 2020-12) of the payload kinds, generated from zod. */
export async function runSchema(
  ctx: CliContext,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const { resolveForCommand } = await import('../options/resolve.js');
  const flags = resolveForCommand(ctx, schemaOptions, given);
  const { json } = flags;
  const { createOutput } = await import('../render/output.js');
  const out = createOutput(ctx, { json });
  if (flags.format === 'markdown') return printContract(ctx, out, json, flags);
  if (flags.format === 'openapi' || flags.format === 'asyncapi') {
    return printApiDocument(ctx, out, json, { ...flags, format: flags.format });
  }
  if (flags.role !== undefined)
    throw new SvcError(
      'SVC_E_USAGE',
      'Could not print the schemas: --role applies to --format openapi.',
      'Add --format openapi, or drop --role.',
    );
  // Lazy: --help must not load zod (start-up is a feature).
  const { writeSchemas, collectSchemas } = await import('../../contract/schema-files.js');
  const { listKinds } = await import('../../contract/index.js');
  const { renderKindList } = await import('../render/schema.js');
  if (flags.list) {
    const kinds = listKinds().filter((k) => flags.kind === undefined || k.name === flags.kind);
    renderKindList(out, kinds);
    return 0;
  }
  if (flags.out !== undefined) {
    const written = await writeSchemas({
      dir: flags.out,
      cwd: ctx.cwd,
      ...(flags.kind === undefined ? {} : { kind: flags.kind }),
    });
    for (const file of written)
      out.event(
        { type: 'schema-written', file },
        (e, c) => `${c.green('wrote')} ${String(e.file)}`,
      );
    return 0;
  }
  const schemas = collectSchemas(flags.kind);
  // The schema document itself is the output; with --json it is one NDJSON line with a
  // type, like every other --json line
  const document = flags.kind === undefined ? schemas : schemas[flags.kind];
  if (json) {
    out.event({
      type: 'schema',
      ...(flags.kind === undefined
        ? { schemas: document }
        : { kind: flags.kind, schema: document }),
    });
  } else {
    ctx.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
  return 0;
}

/** The flags a whole-contract format reads (it refuses --kind, --list and --role). */
interface DocumentFlags {
  kind: string | undefined;
  list: boolean;
  out: string | undefined;
  role: string | undefined;
}

/** `--format markdown`: the contract reference on stdout, or written as --out. */
async function printContract(
  ctx: CliContext,
  out: Output,
  json: boolean,
  flags: DocumentFlags,
): Promise<number> {
  if (flags.kind !== undefined || flags.list || flags.role !== undefined)
    throw new SvcError(
      'SVC_E_USAGE',
      'Could not build the contract reference: --kind, --list and --role apply to other formats.',
      'The reference holds every kind; `svc-cli explain <kind>` prints one.',
    );
  const { contractMarkdown } = await import('../../reference/render.js');
  const text = contractMarkdown();
  if (flags.out !== undefined) {
    const { writeInto } = await import('../../contract/schema-files.js');
    const file = flags.out.endsWith('.md') ? flags.out : join(flags.out, 'CONTRACT.md');
    await writeInto(ctx, dirname(file), [[basename(file), text]]);
    out.event({ type: 'schema-written', file }, (e, c) => `${c.green('wrote')} ${String(e.file)}`);
    return 0;
  }
  if (json) out.event({ type: 'schema', format: 'markdown', document: text });
  else ctx.stdout.write(text);
  return 0;
}

/** `--format openapi|asyncapi`: the document on stdout, or written into --out. */
async function printApiDocument(
  ctx: CliContext,
  out: Output,
  json: boolean,
  flags: DocumentFlags & { format: 'openapi' | 'asyncapi' },
): Promise<number> {
  if (flags.kind !== undefined || flags.list)
    throw new SvcError(
      'SVC_E_USAGE',
      `Could not build the ${flags.format} document: --kind and --list apply to --format json-schema.`,
      'The document holds every kind; drop --kind and --list.',
    );
  const { buildApiDocument, writeApiDocument } = await import('../../contract/api-docs/index.js');
  const options = {
    format: flags.format,
    ...(flags.role === undefined ? {} : { role: flags.role }),
  };
  if (flags.out !== undefined) {
    const file = await writeApiDocument({ ...options, dir: flags.out, cwd: ctx.cwd });
    out.event({ type: 'schema-written', file }, (e, c) => `${c.green('wrote')} ${String(e.file)}`);
    return 0;
  }
  const document = buildApiDocument(options);
  if (json) out.event({ type: 'schema', format: flags.format, document });
  else ctx.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return 0;
}
