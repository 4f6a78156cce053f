import { mkdirSync } from 'node:fs';
import { writeFileWhole } from '../../io/write-whole.js';
import { basename, dirname, extname, relative, resolve, sep } from 'node:path';
import { SvcError, systemReason } from '../../errors.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { toFixtureOptions } from './tool-options.js';
import { readRecording } from '../../conversation/record/read-recording.js';
import { convertRecording } from '../../conversation/record/to-fixture.js';
import { packageFiles } from '../../package-files.js';

/**
 * The bundled JSON Schema of the conversation format, as a path relative to `outFile`; without
 * one (or from the single binary, which has no schema file on disk), where it is from a
 * project's fixtures/conversations.
 */
export function schemaPathFor(outFile: string | undefined): string {
  const schema = packageFiles().pathOf('schemas/conversation.schema.json');
  if (outFile === undefined || schema === undefined) return '../../schemas/conversation.schema.json';
  return relative(dirname(outFile), schema).split(sep).join('/');
}

/** `svc-cli record to-fixture`: read -> convert -> print (or write) the conversation. */
export async function runToFixture(
  ctx: CliContext,
  file: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, toFixtureOptions, given);
  const path = resolve(ctx.cwd, file);
  const out = flags.out === undefined ? undefined : resolve(ctx.cwd, flags.out);
  const conversation = convertRecording({
    records: await readRecording(path),
    name: flags.name ?? `recorded ${basename(file, extname(file))}`,
    schema: schemaPathFor(out),
  });
  const text = `${JSON.stringify(conversation, null, 2)}\n`;
  if (out === undefined) {
    ctx.stdout.write(text);
  } else {
    // a fixture goes into a fixtures folder a new project may not have yet (mkdir -p)
    try {
      mkdirSync(dirname(out), { recursive: true });
      writeFileWhole(out, text);
    } catch (error) {
      if (error instanceof SvcError) throw error; // the disk refused it: said as such
      throw new SvcError(
        'SVC_E_RECORD',
        'input',
        `Could not write --out ${flags.out ?? out}: ${systemReason(error)}.`,
      );
    }
    ctx.stderr.write(`conversation written to ${flags.out}: ${conversation.steps.length} steps\n`);
  }
  return 0;
}
