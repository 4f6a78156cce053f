import { writeSync } from 'node:fs';
import { openWhole, writeError } from '../../io/write-whole.js';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { traceOptions } from './trace-options.js';
import { readTrace, type TracedConversation } from '../../trace/read.js';
import { otlpEnvelope, spanIdOf, toOtlpSpans, traceIdOf } from '../../trace/otlp.js';
import { readPackageVersion } from '../../package-files.js';
import { createOutput } from '../render/output.js';
import { formatTimeline, formatViolation, spanEvent } from '../render/trace.js';
import { checkConversation, checkInvariantNames } from '../../trace/invariants.js';
import { plural } from '../../plural.js';
import { inputError, SvcError } from '../../errors.js';
import { STDIN, shownInput } from '../../journal/read-input.js';
import { assertJournal, assertRecorded } from '../../trace/not-a-journal.js';
import { noteSkippedLines, noteUnplacedEntries } from '../render/skipped-lines.js';
import { loadForeignPlacer } from './foreign-har.js';
import { checkWritableFile } from '../out-file.js';
import { chatsHint } from './chats-hint.js';

/** Where the output goes: stdout through the CLI's writer, or a file written as it comes. */
interface Sink {
  write(text: string): void | Promise<void>;
  close(): Promise<void>;
  /** a run that failed: a file is left as it was (no empty trace in place of the last one) */
  discard(): void;
}

function fileSink(path: string, shown: string): Sink {
  const file = openWhole(path, shown);
  return {
    write(text) {
      try {
        writeSync(file.fd, text);
      } catch (error) {
        throw writeError(error, shown);
      }
    },
    close() {
      file.commit();
      return Promise.resolve();
    },
    discard: () => file.discard(),
  };
}

/**
 * The output's format. `--json` is `--format json`; beside another typed `--format` the two
 * name different outputs, and one silently winning printed NDJSON where an OTLP document was
 * asked for: refused, as `--json` beside a typed `--reporter` is (out-file.ts).
 * @example formatOf(true, 'otlp-json') // throws SVC_E_OPTIONS
 */
export function formatOf(json: boolean, typed: unknown): 'text' | 'json' | 'otlp-json' {
  const format = typed === 'json' || typed === 'otlp-json' ? typed : 'text';
  if (!json) return format;
  if (typed === undefined || typed === 'json') return 'json';
  throw inputError(
    'SVC_E_OPTIONS',
    `Could not use --json with --format ${format}: both name the output's format.`,
    typed === 'otlp-json'
      ? 'Drop one: --json prints NDJSON spans, --format otlp-json an OTLP/JSON document (svc-cli trace session.ndjson --format otlp-json --out trace.json).'
      : 'Drop one: --json prints NDJSON spans, --format text a timeline.',
  );
}

/** `svc-cli trace`: stream the journal -> link each conversation -> print it as it completes. */
export async function runTrace(
  ctx: CliContext,
  file: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, traceOptions, given);
  const format = formatOf(flags.json, given.format);
  const out = createOutput(ctx, { json: format === 'json' });
  const disabled = checkInvariantNames(flags.invariant ?? []);
  checkWritableFile({ cwd: ctx.cwd, file: flags.out, flag: '--out' });
  const path = file === STDIN ? STDIN : resolve(ctx.cwd, file);
  const shown = shownInput(file);
  let violations = 0;
  const sink: Sink = flags.out
    ? fileSink(resolve(ctx.cwd, flags.out), flags.out)
    : {
        async write(text) {
          ctx.stdout.write(text);
          await out.backpressure();
        },
        close: () => out.flush(),
        discard: () => undefined,
      };
  let spans = 0;
  let first = true;
  const onConversation = async (c: TracedConversation): Promise<void> => {
    spans += c.spans.length;
    const broken = checkConversation(c, { disabled });
    violations += broken.length;
    if (format === 'otlp-json') {
      for (const span of toOtlpSpans(c)) {
        await sink.write(`${first ? '' : ','}\n${JSON.stringify(span)}`);
        first = false;
      }
      return;
    }
    if (format === 'json') {
      const traceId = traceIdOf(c.run, c.chat);
      const present = new Set(c.spans.map((s) => s.seq));
      let text = '';
      for (const s of c.spans) {
        const parent =
          s.cause !== undefined && present.has(s.cause) ? spanIdOf(c.run, s.cause) : undefined;
        text += `${JSON.stringify(spanEvent(c, s, traceId, spanIdOf(c.run, s.seq), parent))}\n`;
      }
      for (const v of broken) text += `${JSON.stringify({ type: 'violation', traceId, ...v })}\n`;
      await sink.write(text);
      return;
    }
    const lines = [
      ...formatTimeline(c, out.chalk, out.columns),
      ...broken.flatMap((v) => formatViolation(v, out.chalk, out.columns)),
    ];
    await sink.write(`${first ? '' : '\n'}${lines.join('\n')}\n`);
    first = false;
  };
  let summary: Awaited<ReturnType<typeof readTrace>>;
  try {
    if (format === 'otlp-json') await sink.write(otlpEnvelope(readPackageVersion()).head);
    summary = await readTrace({
      file: path,
      stdin: ctx.stdin,
      ...(flags.chat === undefined ? {} : { chat: flags.chat }),
      onConversation,
      placeForeign: loadForeignPlacer,
    });
    assertJournal(shown, summary, [{ shown, path }]);
    assertRecorded(shown, summary.records);
    noteSkippedLines(out, shown, summary);
    noteUnplacedEntries(out, shown, summary.unplaced);
    if (format === 'otlp-json') await sink.write(`\n${otlpEnvelope('').tail}`);
    if (format === 'json')
      await sink.write(
        `${JSON.stringify({ type: 'summary', conversations: summary.conversations, spans, records: summary.records, violations, outside: summary.outside, skipped: summary.skipped })}\n`,
      );
    // the error alone: a "0 conversations, 0 exchanges" line before it read as a result
    if (summary.conversations === 0 && flags.chat !== undefined)
      throw new SvcError(
        'SVC_E_NO_CHAT',
        `Could not trace chat ${flags.chat}: no exchange of that chat in ${shown}.`,
        chatsHint(summary.chats, 'trace'),
      );
    await sink.close();
  } catch (error) {
    sink.discard();
    throw error;
  }
  const what = `${plural(summary.conversations, 'conversation')}, ${plural(spans, 'exchange')}`;
  const extra = [
    violations > 0 ? `${plural(violations, 'invariant violation')}` : '',
    summary.outside > 0 ? `${summary.outside} outside any chat` : '',
  ].filter(Boolean);
  if (format === 'text' || flags.out) {
    out.note(
      `${what}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}${flags.out ? ` written to ${flags.out}` : ''}`,
    );
    // an empty timeline with no word of why: say what report's page says, and what to record
    if (summary.conversations === 0 && summary.outside > 0)
      out.note(nothingToTraceNote(summary.outside));
  }
  // a broken invariant fails the run, as it fails a replay (exit 1)
  return violations > 0 ? 1 : 0;
}

/**
 * Why a trace drew no conversation although the recording held exchanges, and what to record
 * instead (report's page says the same).
 * @example nothingToTraceNote(1) // 'nothing to draw: its 1 exchange is outside any chat ...'
 */
export function nothingToTraceNote(outside: number): string {
  const them = outside === 1 ? `its 1 exchange is` : `its ${outside} exchanges are`;
  return `nothing to draw: ${them} outside any chat (status checks, control requests, refused messages). A conversation starts with a customer message the platform took: record the platform while a chat runs (svc-cli platform --record session.ndjson), or a proxy between your app and the platform.`;
}
