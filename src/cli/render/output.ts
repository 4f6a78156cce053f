import type { ChalkInstance } from 'chalk';
import type { CliContext } from '../context.js';
import { makeChalk } from './style.js';
import { createBufferedWriter } from './buffered.js';
import { registerWriter } from './flush.js';
import { noticeLine } from './notice.js';
import { fitFor } from './fit.js';
import { escapeControlChars, escapeControlCharsIn } from './control-chars.js';

export { flushOutputs } from './flush.js';

/**
 * Any event a core emits: a discriminated union on `type` (see each core's event types).
 * No index signature, so a core's event interfaces are OutputEvents as they are.
 */
export interface OutputEvent {
  type: string;
}

export type Formatter<E extends OutputEvent = OutputEvent> = (
  event: E,
  c: ChalkInstance,
) => string | undefined;

export interface Output {
  readonly json: boolean;
  /** --quiet: `event()` prints only what must be seen (see `isEssential`) */
  readonly quiet: boolean;
  readonly chalk: ChalkInstance;
  /**
   * Prints one event: NDJSON with --json, else the formatter's line (skipped when undefined).
   * With --quiet only essential events print (the listening line, warnings, errors).
   * `toJson`, for an event printed by the hundred thousand (validate), must give exactly what
   * JSON.stringify gives, faster; events with a protocol time never take it.
   */
  event<E extends OutputEvent>(
    event: E,
    format?: Formatter<E>,
    toJson?: (event: E) => string,
  ): void;
  /** A human line on stdout (suppressed with --json). */
  line(text: string): void;
  /** stdout's width when it is a terminal (a line longer than it breaks), else undefined */
  readonly columns: number | undefined;
  /**
   * A human line on stderr (diagnostics, warnings), also with --json; what stdout buffers is
   * written first, so the two read in order on one pipe (`2>&1`).
   */
  note(text: string): void;
  /** Writes what stdout still buffers. */
  flush(): Promise<void>;
  /**
   * A promise while stdout is full (a slow reader of a pipe), undefined when it takes more: a
   * producer that can pause awaits it rather than pile its output up in memory.
   */
  backpressure(): Promise<void> | undefined;
}

/**
 * The one place that decides between human and machine output.
 * @example const out = createOutput(ctx, { json: true }); out.event({ type: 'listening', url });
 */
export function createOutput(
  ctx: CliContext,
  options: { json?: boolean | undefined; quiet?: boolean | undefined },
): Output {
  const json = Boolean(options.json);
  const quiet = Boolean(options.quiet);
  const chalk = makeChalk(ctx, ctx.stdout);
  // One write per event-loop turn: a simulator under load emits thousands of lines a second.
  const stdout = createBufferedWriter(ctx.stdout);
  registerWriter(stdout);
  const errChalk = makeChalk(ctx, ctx.stderr);
  // in a terminal, a line longer than it breaks at spaces under its message (fit.ts)
  const fitOut = fitFor(ctx.stdout);
  const fitErr = fitFor(ctx.stderr);
  return {
    json,
    quiet,
    chalk,
    event(event, format, toJson) {
      if (quiet && !isEssential(event)) return;
      if (json) {
        // a timed event carries the wall-clock time too, so the NDJSON of several
        // commands (and of --time-scale runs) can be lined up
        if ('protocolMs' in event)
          stdout.write(`${JSON.stringify({ ...event, at: new Date().toISOString() })}\n`);
        else stdout.write(`${toJson ? toJson(event) : JSON.stringify(event)}\n`);
        return;
      }
      // what peers sent (texts, bodies, error messages) never reaches the terminal as control
      // characters: every string of the event is escaped before a formatter lays it out
      const shown = escapeControlCharsIn(event);
      const text = format ? format(shown, chalk) : defaultFormat(shown, chalk);
      if (text !== undefined) stdout.write(`${fitOut(text)}\n`);
    },
    line(text) {
      if (!json) stdout.write(`${fitOut(text)}\n`);
    },
    get columns() {
      const tty = ctx.stdout as { isTTY?: boolean; columns?: number };
      return tty.isTTY && tty.columns ? tty.columns : undefined;
    },
    note(text) {
      // what stdout still buffers goes first: with 2>&1 on one pipe, a note written after the
      // results must read after them (the buffer's write is synchronous; its drain not awaited)
      void stdout.flush();
      // a note may quote a peer (a warning about what it sent): no control characters of it
      ctx.stderr.write(
        json ? noticeLine(text, true) : `${fitErr(errChalk.dim(escapeControlChars(text)))}\n`,
      );
    },
    flush: () => stdout.flush(),
    backpressure: () => stdout.backpressure(),
  };
}

/**
 * Events that report a rejected request, a broken contract or a failure of the peer under
 * test (a page's callback that threw), whatever the role.
 */
const REJECTIONS = new Set(['violation', 'request-rejected', 'widget-callback-threw']);

/**
 * What --quiet still prints: the `listening` line (it carries the URLs), warnings and errors —
 * role errors (`*-error`), rejected requests (a refusal means the peer under test sent
 * something the contract rejects: the error the run is for), bot-sim's answers the platform
 * refused, contract violations, a received payload whose
 * verdict has errors or warnings, failed deliveries and token flows, notices above info, the
 * answer to the agent console's /chats. A serving command under load then prints no line per
 * good request; the journal keeps them all.
 */
export function isEssential(event: OutputEvent): boolean {
  const e = event as OutputEvent & {
    level?: unknown;
    verdict?: { ok?: unknown; errors?: unknown[] | number; warnings?: unknown[] | number };
    result?: unknown;
    action?: unknown;
  };
  if (e.type === 'recording-stopped') return true; // the run's record is incomplete
  if (e.type === 'console-chats') return true; // the answer to a command the user typed
  if (e.type === 'listening' || e.type === 'summary' || e.type === 'error') return true;
  if (e.type.endsWith('-error')) return true;
  if (REJECTIONS.has(e.type)) return true;
  // bot-sim's answer the platform refused (or never answered): a refusal, as bot-sim's own are
  if (e.type === 'bot-sent') return (e as { status?: unknown }).status !== 200;
  if (e.type === 'notice') return e.level === 'warning' || e.level === 'error';
  const verdict = e.verdict;
  // issues as a list (the roles' lines) or as a count (the proxy's)
  const some = (v: unknown[] | number | undefined): boolean =>
    typeof v === 'number' ? v > 0 : !!v?.length;
  if (verdict && (verdict.ok === false || some(verdict.errors) || some(verdict.warnings)))
    return true;
  return e.result === 'failed' || e.action === 'failed' || e.action === 'refused';
}

function defaultFormat(event: OutputEvent, c: ChalkInstance): string {
  const { type, ...rest } = event as OutputEvent & Record<string, unknown>;
  return `${c.cyan(type.padEnd(18))} ${JSON.stringify(rest)}`;
}
