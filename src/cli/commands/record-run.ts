import { existsSync } from 'node:fs';
import { checkWritableFile } from '../out-file.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SvcError, systemReason } from '../../errors.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { toFixtureOptions } from './record-options.js';
import { readRecording } from '../../conversation/record/read-recording.js';
import { assertNoFixture, assertRecorded } from '../../trace/not-a-journal.js';
import { STDIN, shownInput } from '../../journal/read-input.js';
import type { SkippedLines } from '../../journal/skipped-lines.js';
import { skippedLinesNotice } from '../render/skipped-lines.js';
import { createOutput } from '../render/output.js';
import {
  convertRecordingCounted,
  type PeerFailureCount,
} from '../../conversation/record/to-fixture.js';
import { botSideOf } from '../../conversation/record/bot.js';
import { describeRun, runsOf, selectRun } from '../../conversation/record/runs.js';
import { packageFiles } from '../../package-files.js';
import { plural } from '../../plural.js';

const SCHEMA = 'schemas/conversation.schema.json';

/**
 * The fixture's `$schema`: a path that resolves wherever the fixture is used, or none (null).
 * A project with svc-cli installed gets the path to the package's schema in its own
 * node_modules; a fixture inside this svc-cli's own tree the path to its schemas folder.
 * Anything else would be a path into the checkout that ran the command (`../../<somewhere>`),
 * which no one else has: no `$schema` then (`svc-cli schema --kind conversation` prints it).
 * @example schemaPathFor('/work/app/fixtures/a.json', '/work/app') // '../node_modules/svc-cli/schemas/conversation.schema.json'
 */
export function schemaPathFor(outFile: string | undefined, cwd: string): string | null {
  // this svc-cli's own tree on disk (none in the single binary: its schema is not a file)
  const own = packageFiles().folderOf('.');
  const from = outFile === undefined ? cwd : dirname(outFile);
  const installed = installedSchema(from);
  if (outFile === undefined) {
    // printed: where it will be saved is unknown; this tree's fixtures folder keeps its path
    return own !== undefined && inside(own, cwd) && installed === undefined
      ? `../../${SCHEMA}`
      : null;
  }
  const target =
    installed ?? (own !== undefined && inside(own, outFile) ? join(own, SCHEMA) : undefined);
  return target === undefined ? null : relative(from, target).split(sep).join('/');
}

function installedSchema(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', 'svc-cli', SCHEMA);
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * What kept peer failures mean: a recording from staging, where the peer failed, replays
 * red against the same peer once it is fixed, at the first failure the fixture expects.
 */
function peerFailuresNotice(file: string, failures: PeerFailureCount): string | undefined {
  const parts = [
    ...(failures.integrator > 0
      ? [`${plural(failures.integrator, 'refused delivery attempt')} by the integrator`]
      : []),
    ...(failures.hooks > 0
      ? [`${plural(failures.hooks, 'failed hook reply', 'failed hook replies')}`]
      : []),
  ];
  if (parts.length === 0) return undefined;
  const one = failures.integrator + failures.hooks === 1;
  return `note: ${file} holds ${parts.join(' and ')}: the conversation expects ${one ? 'it' : 'them'} again (replay's embedded peers play ${one ? 'it' : 'them'}), so a replay against a peer that accepts at once fails at ${one ? 'it' : 'the first'}; --peer-failures drop writes it for such a peer`;
}

/** `svc-cli record to-fixture`: read -> convert -> print (or write) the conversation. */
export async function runToFixture(
  ctx: CliContext,
  file: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, toFixtureOptions, given);
  const shown = shownInput(file);
  const path = file === STDIN ? STDIN : resolve(ctx.cwd, file);
  const out = flags.out === undefined ? undefined : resolve(ctx.cwd, flags.out);
  checkWritableFile({ cwd: ctx.cwd, file: flags.out, flag: '--out' });
  // what it says beside the conversation: plain lines, or notice objects with --json
  const notes = createOutput(ctx, { json: flags.json });
  const skipped: SkippedLines = { skipped: 0 };
  const all = await readRecording(path, skipped, ctx.stdin).catch((error: unknown) => {
    // a fixture is the usual wrong argument: say so rather than "line 1 is not JSON"
    if (error instanceof SvcError && error.code === 'SVC_E_RECORDING')
      assertNoFixture([{ shown: file, path }], 'convert that');
    throw error;
  });
  const skippedNote = skippedLinesNotice(shown, skipped);
  if (skippedNote !== undefined) notes.note(skippedNote);
  // a file never written (a listen nothing reached) is said to be empty, as trace and
  // record diff say it, not refused as a recording of the wrong side
  assertRecorded(shown, all.length);
  const records = flags.run === undefined ? all : selectRun(all, flags.run, shown);
  const runs = runsOf(all);
  if (flags.run === undefined && runs.length > 1) {
    // `--record` appends: a newcomer who recorded twice into session.ndjson gets both
    notes.note(
      `${shown} holds ${runs.length} runs, converted into one conversation in the order they ran: ${runs.map(describeRun).join(', ')}; --run <id> converts one`,
    );
  }
  const { conversation, failures } = convertRecordingCounted({
    records,
    name: flags.name ?? `recorded ${file === STDIN ? 'stdin' : basename(file, extname(file))}`,
    schema: schemaPathFor(out, ctx.cwd),
    peerFailures: flags.peerFailures,
  });
  const kept = flags.peerFailures === 'keep' ? peerFailuresNotice(shown, failures) : undefined;
  if (kept !== undefined) notes.note(kept);
  if (botSideOf(records) === 'bot-sim-failing')
    notes.note(
      `warning: the bot in ${shown} was svc-cli's bot-sim, but it failed some attempts with a fault or script the recording does not name: the embedded bot-sim cannot play that, so the fixture is tagged recorded-bot and replay skips it unless --bot-url points at a bot-sim started the same way`,
    );
  const text = `${JSON.stringify(conversation, null, 2)}\n`;
  if (out === undefined) {
    // --json: stdout is NDJSON of typed objects, the conversation one of them
    ctx.stdout.write(
      flags.json ? `${JSON.stringify({ type: 'conversation', conversation })}\n` : text,
    );
  } else {
    try {
      writeFileWhole(out, text);
    } catch (error) {
      if (error instanceof SvcError) throw error; // the disk refused it: said as such
      throw new SvcError(
        'SVC_E_RECORD',
        `Could not write --out ${flags.out ?? out}: ${systemReason(error)}.`,
      );
    }
    notes.note(
      `conversation written to ${flags.out}: ${plural(conversation.steps.length, 'step')}`,
    );
  }
  return 0;
}
