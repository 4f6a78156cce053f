import { SvcError } from '../errors.js';
import { replayConversation, type ConversationResult, type ReplayOptions } from './runner.js';

/**
 * Conversations replayed at once on the embedded world. Each has its own world, virtual
 * clock and loopback servers; running several hides the short real waits of the virtual
 * clock's settle (docs/decisions/0001). Measured with `npm run bench` on 2 cores.
 */
export const DEFAULT_REPLAY_CONCURRENCY = 4;

export interface ReplayAllOptions {
  /**
   * How many conversations run at once (1 = one after another). Default
   * `DEFAULT_REPLAY_CONCURRENCY`, or 1 when a conversation talks to a real peer (a real
   * peer may not handle parallel conversations on the same channel).
   */
  concurrency?: number;
  /** After the first failing conversation (in input order) report nothing more. */
  bail?: boolean;
  /** Called in input order, as soon as a result and every result before it are done. */
  onResult?: (result: ConversationResult, index: number) => void;
}

/** True when a conversation talks to a real peer (real time, a shared channel). */
export function usesRealPeer(options: ReplayOptions): boolean {
  return (
    options.platformUrl !== undefined ||
    options.integratorUrl !== undefined ||
    options.botUrl !== undefined ||
    options.hookUrl !== undefined
  );
}

type Settled = { result: ConversationResult } | { error: unknown };

/**
 * Replays conversations with bounded concurrency and reports them in input order, so the
 * results (and `onResult` calls) are those of a sequential run. With `bail`, no conversation
 * starts after a failure; those running finish, and the results end at the first failing one
 * in input order. A conversation that throws (an unreachable `--platform-url`) ends the run
 * the same way: the results before it are reported, then it throws.
 * @example const results = await replayAll(loaded.map(({ file, conversation }) => ({ file, conversation })), { concurrency: 4 });
 */
export async function replayAll(
  items: readonly ReplayOptions[],
  options: ReplayAllOptions = {},
): Promise<ConversationResult[]> {
  const concurrency =
    options.concurrency ?? (items.some(usesRealPeer) ? 1 : DEFAULT_REPLAY_CONCURRENCY);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new SvcError(
      'SVC_E_CONCURRENCY',
      'input',
      `Could not replay: concurrency must be a whole number >= 1, got ${concurrency}.`,
    );
  const settled: Array<Settled | undefined> = [];
  const reported: ConversationResult[] = [];
  let started = 0;
  let emitted = 0;
  // Set once the run is decided (a failure with bail, an error): nothing more starts or is reported.
  let stopped = false;
  let thrown: { error: unknown } | undefined;

  // Reports every result that is next in input order.
  const report = (): void => {
    for (let next = settled[emitted]; !thrown && next !== undefined; next = settled[emitted]) {
      settled[emitted] = undefined;
      const index = emitted++;
      if ('error' in next) {
        thrown = next;
        return;
      }
      reported.push(next.result);
      try {
        options.onResult?.(next.result, index);
      } catch (error) {
        thrown = { error };
        return;
      }
      if (options.bail && !next.result.ok) {
        emitted = items.length; // a sequential --bail stops here
        return;
      }
    }
  };

  const worker = async (): Promise<void> => {
    while (!stopped && started < items.length) {
      const index = started++;
      let outcome: Settled;
      try {
        outcome = { result: await replayConversation(items[index] as ReplayOptions) };
      } catch (error) {
        outcome = { error };
      }
      settled[index] = outcome;
      // A failure decides a --bail run and an error every run: whatever comes after it in
      // input order is never reported, so it need not start.
      if ('error' in outcome || (options.bail && !outcome.result.ok)) stopped = true;
      report();
      if (thrown) stopped = true;
    }
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (thrown) throw thrown.error;
  return reported;
}
