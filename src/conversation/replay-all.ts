import { SvcError } from '../errors.js';
import { replayConversation, type ConversationResult, type ReplayOptions } from './runner.js';

/**
 * Conversations replayed at once on the embedded world. Each has its own world and virtual
 * clock over the in-process transport; running several overlaps the loop turns of each
 * clock's settle (docs/decisions/0001-virtual-clock-settling.md). Measured with `BENCH_SWEEP=1 npm run bench` on 2
 * cores: 1, 4 and 8 are within this machine's noise of each other (~700-780/s
 * warm), 4 was as fast as any.
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
  /**
   * Called as each conversation finishes, in any order: a run stopped by a signal reports
   * those that finished behind one still running (`onResult` has not had them yet).
   */
  onSettled?: (result: ConversationResult, index: number) => void;
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
 * How long a conversation keeps its virtual clock waiting in real time: every fault that
 * stalls a request on the clock (a body that trickles, a peer that hangs, a delay) costs
 * the settle window at each clock jump (docs/decisions/0001-virtual-clock-settling.md). Such conversations start
 * first, so a long one does not end the run alone while the other slots stand idle (the
 * longest-first rule of test runners); results are still reported in input order.
 */
export function stallWeight(options: ReplayOptions): number {
  const setup = options.conversation.setup;
  let weight = 0;
  for (const plan of [setup?.integrator?.faults, setup?.bot?.faults, setup?.hooks?.faults]) {
    if (!plan) continue;
    if (plan.delayMs) weight++;
    for (const fault of [...(plan.sequence ?? []), plan.fault, plan.failWith]) {
      if (fault?.kind === 'slow-body' || fault?.kind === 'hang') weight++;
    }
  }
  return weight;
}

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
      `Could not replay: concurrency must be a whole number >= 1, got ${concurrency}.`,
    );
  const settled: Array<Settled | undefined> = [];
  const reported: ConversationResult[] = [];
  // Start order: the ones that stall on the clock first (stable), one after another else.
  const weights = items.map(stallWeight);
  const order = items.map((_, i) => i);
  if (concurrency > 1) order.sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0) || a - b);
  let started = 0;
  let emitted = 0;
  // Only conversations before this index can still be reported: a failure with --bail or an
  // error at index k decides the run, so nothing after k need start.
  let needed = items.length;
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
    while (!thrown && started < order.length) {
      const index = order[started++] as number;
      if (index >= needed) continue;
      let outcome: Settled;
      try {
        outcome = { result: await replayConversation(items[index] as ReplayOptions) };
      } catch (error) {
        outcome = { error };
      }
      settled[index] = outcome;
      if ('result' in outcome) options.onSettled?.(outcome.result, index);
      // A failure decides a --bail run and an error every run: whatever comes after it in
      // input order is never reported, so it need not start.
      if ('error' in outcome || (options.bail && !outcome.result.ok))
        needed = Math.min(needed, index + 1);
      report();
    }
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (thrown) throw thrown.error;
  return reported;
}
