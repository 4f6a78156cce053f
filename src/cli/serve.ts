/**
 * The life of a serving command (`listen`, `platform`, ...): print `listening` first, serve
 * until SIGINT/SIGTERM aborts `ctx.signal`, then close the servers and flush the journals.
 * main.ts turns the signal into exit code 130 / 143.
 */
import type { Journal } from '../journal/index.js';
import type { CliContext } from './context.js';
import { boundHeapGrowth } from './heap.js';
import type { Formatter, Output, OutputEvent } from './render/output.js';
import { watchRefusals } from './serving-flags.js';

export interface Closable {
  close(graceMs?: number): Promise<void>;
}

export interface ServeOptions<E extends OutputEvent> {
  out: Output;
  /** printed first: `{"type":"listening","url":...}` with --json */
  listening: E & { type: 'listening'; url: string };
  format?: Formatter<E>;
  /** closed in order once the signal fires */
  servers: readonly Closable[];
  /** flushed and closed after the servers */
  journals?: readonly Journal[];
  /** ms in-flight requests get to finish (default 500) */
  graceMs?: number;
}

/**
 * Prints `listening`, waits for `ctx.signal`, then closes everything; resolves when closed.
 * @example await serveUntilAborted(ctx, { out, listening: listener.listening, servers: [listener], journals: [journal] });
 */
export async function serveUntilAborted<E extends OutputEvent>(
  ctx: Pick<CliContext, 'signal'>,
  options: ServeOptions<E>,
): Promise<void> {
  boundHeapGrowth();
  options.out.event(options.listening, options.format);
  const refusals = watchRefusals((line) => options.out.note(line));
  try {
    await waitForAbort(ctx.signal);
  } finally {
    for (const server of options.servers) await server.close(options.graceMs ?? 500);
    for (const journal of options.journals ?? []) journal.close();
    refusals.stop();
  }
  const refused = refusals.summary();
  if (refused) options.out.note(refused);
  const reason: unknown = ctx.signal.reason;
  // --quiet prints warnings and errors only: a stop the user asked for is neither
  if (!options.out.quiet)
    options.out.note(`stopped (${reason instanceof Error ? reason.message : 'signal'})`);
  for (const journal of options.journals ?? []) {
    const { state, written, file, failure } = journal.recording;
    if (state === 'stopped')
      options.out.note(
        `the recording is incomplete: ${file ?? ''} holds ${written} of ${journal.count} exchanges (${failure?.reason ?? 'a write failed'}); exit code 5`,
      );
  }
}

/** Resolves once `signal` aborts (at once when it already has). */
export function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}
