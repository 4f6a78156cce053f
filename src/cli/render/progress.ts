/**
 * Progress while the tool waits on protocol time: ora spinners on stderr, only on a TTY and
 * never with --json (ora is imported only then). `withSpinner` covers one awaited exchange
 * (send-*, status); `createDeliveryProgress` follows the platform's redelivery series from
 * its `delivery-attempt` events: "redelivery attempt 2/3 in 3.0 s".
 */
import type { Ora } from 'ora';
import type { CliContext } from '../context.js';
import { isForegroundJob } from '../terminal.js';

/**
 * A terminal that cannot redraw a line in place (`TERM=dumb`: Emacs' shell, some log viewers)
 * or a CI run (`CI` set, as every CI service sets it): each redraw would stay in the log.
 * @example isLiveOutputOff({ CI: 'true' }) // true
 */
export function isLiveOutputOff(env: NodeJS.ProcessEnv): boolean {
  if (env.TERM === 'dumb') return true;
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

/**
 * Whether progress (a spinner, `load`'s live line) may be drawn: a TTY on stderr, no --json,
 * no `TERM=dumb` or `CI`, and not a background job (a job started with `&` keeps serving, and
 * drawing would stop it). A spinner never reads stdin (`discardStdin: false`): the agent
 * console and the chat read it while one runs.
 */
export function isProgressShown(
  ctx: Pick<CliContext, 'stderr' | 'stdin' | 'env'>,
  json: boolean,
): boolean {
  // a terminal that reports no width (a bare pseudo-terminal) would make ora clear lines
  // without end: no spinner there
  const columns = (ctx.stderr as { columns?: number }).columns ?? 0;
  return (
    !json &&
    !isLiveOutputOff(ctx.env) &&
    Boolean(ctx.stderr.isTTY) &&
    columns > 0 &&
    (!ctx.stdin.isTTY || isForegroundJob(ctx.stdin))
  );
}

/**
 * Shows a spinner while `work` runs.
 * @example const result = await withSpinner(ctx, { json }, 'sending', send());
 */
export async function withSpinner<T>(
  ctx: CliContext,
  options: { json: boolean },
  text: string,
  work: Promise<T>,
): Promise<T> {
  if (!isProgressShown(ctx, options.json)) return work;
  // `work` already runs: a request refused at once fails before ora has loaded, and a rejection
  // no one handles yet ends the process with a stack (exit 1) instead of the command's error.
  // Marked handled here; awaited below, it still throws to the caller.
  work.catch(() => undefined);
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: ctx.stderr, discardStdin: false }).start();
  try {
    return await work;
  } finally {
    spinner.stop();
  }
}

/** The parts of a `delivery-attempt` / `delivery-done` event progress reads. */
export interface DeliveryProgressEvent {
  type: string;
  deliveryId?: string;
  target?: string;
  attempt?: number;
  attempts?: number;
  offsetMs?: number;
  durationMs?: number;
  outcome?: string;
  protocolMs?: number;
}

export interface DeliveryProgress {
  /** Feed every platform event; attempts and verdicts drive the spinner. */
  onEvent(event: DeliveryProgressEvent): void;
  /**
   * Prints without tearing the spinner line: clears it, prints, writes what stdout buffers,
   * draws it again.
   */
  around(print: () => void): void;
  stop(): void;
}

export interface DeliveryProgressOptions {
  json: boolean;
  /** protocol ms between attempt starts, per delivery target (spec 8: 3000 for integrator) */
  intervalMs: (target: string) => number;
  /** the protocol clock */
  now: () => number;
  /** writes what stdout still buffers (lines printed between two spinner frames) */
  flush?: () => unknown;
  /**
   * Shows the countdown here instead of a spinner (the agent console's prompt line: a spinner
   * on the line the person types on would wipe the typing); undefined takes it away.
   */
  status?: (text: string | undefined) => void;
}

const NOOP: DeliveryProgress = {
  onEvent: () => undefined,
  around: (print) => print(),
  stop: () => undefined,
};

/**
 * @example const progress = await createDeliveryProgress(ctx, { json, intervalMs: () => 3000, now: clock.now }); core.on(progress.onEvent);
 */
export async function createDeliveryProgress(
  ctx: CliContext,
  options: DeliveryProgressOptions,
): Promise<DeliveryProgress> {
  const { status } = options;
  if (status === undefined && !isProgressShown(ctx, options.json)) return NOOP;
  const ora = status === undefined ? (await import('ora')).default : undefined;
  let spinner: Ora | undefined;
  let ticker: NodeJS.Timeout | undefined;
  /** every series waiting for its next attempt: the label and when the attempt is due */
  const waiting = new Map<string, { label: string; due: number }>();
  /** whether a countdown is on the prompt line or in a spinner */
  let shown = false;
  /** the soonest next attempt, and how many other series wait beside it */
  const text = (): string | undefined => {
    let next: { label: string; due: number } | undefined;
    for (const entry of waiting.values()) if (!next || entry.due < next.due) next = entry;
    if (!next) return undefined;
    const others = waiting.size - 1;
    const more = others > 0 ? ` (+${others} more waiting)` : '';
    const left = next.due - options.now();
    // due: the attempt is out (one that timed out is followed at once) until its verdict
    // comes, up to 3 s on which "in 0.0 s" stood still
    if (left <= 0) return `${next.label} sent, waiting for its reply${more}`;
    return `${next.label} in ${(left / 1000).toFixed(1)} s${more}`;
  };
  const stop = (): void => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    spinner?.stop();
    spinner = undefined;
    if (shown) status?.(undefined);
    shown = false;
    waiting.clear();
  };
  /** Draws the countdown again, starting it if none runs, ending it when nothing waits. */
  const show = (): void => {
    const now = text();
    if (now === undefined) {
      stop();
      return;
    }
    shown = true;
    if (ticker === undefined) {
      ticker = setInterval(() => {
        const next = text();
        if (next === undefined) return;
        if (status) status(next);
        else if (spinner) spinner.text = next;
      }, 250);
      ticker.unref();
    }
    if (status) {
      status(now);
      return;
    }
    if (spinner) {
      spinner.text = now;
      return;
    }
    void options.flush?.(); // lines already printed go above the spinner, not after it
    spinner = ora?.({ text: now, stream: ctx.stderr, discardStdin: false }).start();
  };
  return {
    onEvent(event) {
      if (event.type !== 'delivery-attempt' && event.type !== 'delivery-done') return;
      const id = event.deliveryId ?? '';
      const had = waiting.delete(id);
      if (event.type === 'delivery-attempt') {
        const { attempt = 0, attempts = 0, offsetMs = 0, durationMs = 0 } = event;
        if (event.outcome !== 'accepted' && attempt < attempts) {
          const interval = options.intervalMs(event.target ?? 'integrator');
          const due =
            (event.protocolMs ?? options.now()) +
            Math.max(0, interval * attempt - offsetMs - durationMs);
          // a bot event is retried, not redelivered: say whose attempt, as the log lines do
          const what =
            (event.target ?? 'integrator') === 'integrator' ? 'redelivery' : event.target;
          waiting.set(id, { label: `${what} attempt ${attempt + 1}/${attempts}`, due });
        } else if (!had) return;
      } else if (!had) return;
      show();
    },
    around(print) {
      if (!spinner) return print();
      spinner.clear();
      print();
      // the log line must reach the terminal before the spinner is drawn again below it
      void options.flush?.();
      spinner.render();
    },
    stop,
  };
}

/** A spinner line for a long run with a real peer (no blank terminal, no torn lines). */
export interface RunProgress {
  /** the spinner's text, e.g. `replaying 3 of 23: order status` */
  update(text: string): void;
  /** prints above the spinner */
  around(print: () => void): void;
  stop(): void;
}

/**
 * TTY only (never with --json, never in a background job): elapsed seconds tick beside the text.
 * @example const progress = await createRunProgress(ctx, { json, flush: () => out.flush() });
 */
export async function createRunProgress(
  ctx: CliContext,
  options: { json: boolean; flush?: () => unknown },
): Promise<RunProgress> {
  if (!isProgressShown(ctx, options.json))
    return { update: () => undefined, around: (print) => print(), stop: () => undefined };
  const { default: ora } = await import('ora');
  const started = performance.now();
  let label = '';
  const text = (): string => `${label}  ${((performance.now() - started) / 1000).toFixed(1)} s`;
  const spinner = ora({ text: text(), stream: ctx.stderr, discardStdin: false });
  const ticker = setInterval(() => {
    if (spinner.isSpinning) spinner.text = text();
  }, 250);
  ticker.unref();
  return {
    update(next) {
      label = next;
      spinner.text = text();
      if (!spinner.isSpinning) spinner.start();
    },
    around(print) {
      if (!spinner.isSpinning) return print();
      spinner.clear();
      print();
      void options.flush?.();
      spinner.render();
    },
    stop() {
      clearInterval(ticker);
      spinner.stop();
    },
  };
}
