import { basename, extname, resolve } from 'node:path';
import { checkWritableFile } from '../out-file.js';
import { SvcError, systemReason } from '../../errors.js';
import type { SkippedLines } from '../../journal/skipped-lines.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { observeRecordings } from '../../conversation/record/observe.js';
import { learnProfile } from '../../conversation/record/profile.js';
import {
  checkProfileFigures,
  checkProfileSources,
  type ProfileWarning,
} from '../../conversation/record/profile-agree.js';
import type { RecordingObservation } from '../../conversation/record/observe.js';
import { plural } from '../../plural.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { createOutput } from '../render/output.js';
import { noteSkippedLines } from '../render/skipped-lines.js';
import { recordProfileOptions } from './record-options.js';
import { inputPaths } from '../input-paths.js';
import { STDIN, shownInput } from '../../journal/read-input.js';

/** `svc-cli record profile <recordings...>`: observe them all, learn, print or write. */
export async function runRecordProfile(
  ctx: CliContext,
  files: string[],
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, recordProfileOptions, given);
  checkWritableFile({ cwd: ctx.cwd, file: flags.out, flag: '--out' });
  const skipped: SkippedLines[] = [];
  const paths = inputPaths(ctx.cwd, files);
  // several files: each one's own figures too, to tell when they are not one platform's (stdin
  // can be read once: its own figures are not learned apart then)
  const [seen, ...each] = await Promise.all([
    observeRecordings(paths, skipped, ctx.stdin),
    ...(paths.length > 1 && !paths.includes(STDIN) ? paths.map((p) => observeRecordings([p])) : []),
  ]);
  const output = createOutput(ctx, { json: flags.json });
  for (const [i, file] of files.entries()) {
    const lines = skipped[i];
    if (lines) noteSkippedLines(output, shownInput(file), lines);
  }
  seen.files = files.map(shownInput); // as the user named them: a profile does not carry this machine's paths
  const first = shownInput(files[0] ?? 'recording');
  const profile = learnProfile(seen, flags.name ?? basename(first, extname(first)));
  const warnings = [
    ...sourceWarnings(files.map(shownInput), seen, each),
    ...checkProfileFigures(profile, files.map(shownInput)),
  ];
  for (const w of warnings) output.note(`warning: ${w.message}`);
  const text = `${JSON.stringify(profile, null, 2)}\n`;
  if (flags.out === undefined) {
    // --json: stdout is NDJSON of typed objects, the profile one of them
    ctx.stdout.write(
      flags.json
        ? `${JSON.stringify({ type: 'profile', profile, ...(warnings.length > 0 ? { warnings } : {}) })}\n`
        : text,
    );
    return 0;
  }
  const out = resolve(ctx.cwd, flags.out);
  try {
    writeFileWhole(out, text);
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new SvcError(
      'SVC_E_WRITE',
      `Could not write --out ${flags.out}: ${systemReason(error)}.`,
    );
  }
  const learned = [
    profile.channel?.attempts && `channel attempts ${profile.channel.attempts.value}`,
    profile.bot?.attempts && `bot attempts ${profile.bot.attempts.value}`,
    profile.bot?.failAfterMs && `hand-over after ${profile.bot.failAfterMs.value} ms`,
    profile.keepAliveMs && `keep-alive ${profile.keepAliveMs.value} ms`,
  ].filter(Boolean);
  output.note(
    `profile written to ${flags.out}: ${plural(seen.records, 'exchange')}, ${plural(Object.keys(seen.kinds).length, 'kind')}${learned.length > 0 ? `; ${learned.join(', ')}` : ''}`,
  );
  return 0;
}

/**
 * Whether the files describe one real platform: each file's own profile set beside the
 * others', and any file of svc-cli's simulator named (one file: its own records say).
 */
function sourceWarnings(
  files: string[],
  seen: RecordingObservation,
  each: RecordingObservation[],
): ProfileWarning[] {
  if (each.length === 0)
    return checkProfileSources([
      {
        file: files[0] ?? 'recording',
        profile: learnProfile(seen, 'x'),
        simulator: seen.simulatorRecords !== undefined,
      },
    ]);
  return checkProfileSources(
    each.map((o, i) => ({
      file: files[i] ?? `recording ${i + 1}`,
      profile: learnProfile(o, 'x'),
      simulator: o.simulatorRecords !== undefined,
    })),
  );
}
