import type { Clock } from '../../clock.js';
import { errorText, SvcError } from '../../errors.js';
import { quoteReplyBody } from '../../http/error-page.js';
import type { ConversationResult, StepResult } from '../runner.js';

/**
 * The shared case runner of the conformance suites. A case is a named group of checks
 * against someone else's implementation; its result has the shape of a replayed
 * conversation (checks as steps), so replay's pretty/json/junit reporters print it.
 */
export type ConformSuiteName = 'integrator' | 'hooks' | 'platform' | 'bot';

/** One case's result: a ConversationResult plus the spec sections and a skip reason. */
export interface ConformCaseResult extends ConversationResult {
  suite: ConformSuiteName;
  /** the spec sections the case checks */
  spec: string[];
  /** set when the case could not run against this peer (it counts as neither pass nor fail) */
  skipped?: string;
  /** warnings of passed checks (they do not fail the case) */
  warnings?: string[];
  /**
   * the case judged traffic an earlier case of the run sent (one fuzz run, one case per
   * property): its own times are none, so they are not shown as figures
   */
  judgedOnEarlierRun?: true;
}

/**
 * What a check returns: the reasons it failed (empty or nothing: passed), a skip, a warning
 * (passed, but worth saying: something the spec allows and a careful peer avoids), or a note
 * (passed, with what was measured: "arrived at +3.004 s"; the step's own time is the check's).
 */
export type CheckOutcome = string[] | void | { skip: string } | { warn: string } | { note: string };

/** Where a check's time starts when the work it judges ran before it (protocol ms, wall ms). */
export interface CheckStart {
  protocolMs: number;
  wallMs: number;
}

export interface CaseContext {
  readonly clock: Clock;
  /**
   * Runs one check; false when it failed (later checks of the case still run). `from`: the
   * work it judges began earlier (a fuzz run awaited before the check's name was known).
   */
  check(
    name: string,
    run: () => Promise<CheckOutcome> | CheckOutcome,
    from?: CheckStart,
  ): Promise<boolean>;
  /** The case judges traffic an earlier case sent: it has no time of its own to show. */
  judgedOnEarlierRun(): void;
  /** Records a check that could not run, with the reason. */
  skip(name: string, reason: string): void;
}

export interface ConformCase {
  name: string;
  spec: string[];
  run(ctx: CaseContext): Promise<void>;
}

/**
 * `cases` whose checks say `***` where they would quote `secret` (a token the peer echoes in its
 * error page, a URL it is part of): reports and CI logs keep what conform prints, and the
 * token is the peer's credential (spec 5.2). A secret under 4 characters is no secret to mask.
 * @example maskInCases(cases, token)
 */
export function maskInCases(cases: ConformCase[], secret: string): ConformCase[] {
  if (secret.length < 4) return cases;
  const forms = [...new Set([secret, encodeURIComponent(secret)])];
  const mask = (text: string): string =>
    forms.reduce((masked, form) => masked.split(form).join('***'), text);
  const maskOutcome = (outcome: CheckOutcome): CheckOutcome => {
    if (Array.isArray(outcome)) return outcome.map(mask);
    if (!outcome) return outcome;
    if ('skip' in outcome) return { skip: mask(outcome.skip) };
    if ('warn' in outcome) return { warn: mask(outcome.warn) };
    return { note: mask(outcome.note) };
  };
  const masked = (error: unknown): unknown =>
    error instanceof SvcError && endsTheRun(error)
      ? new SvcError(
          error.code,
          mask(error.message),
          error.hint === undefined ? undefined : mask(error.hint),
        )
      : new Error(mask(errorText(error)));
  return cases.map((item) => ({
    ...item,
    run: async (ctx) => {
      try {
        await item.run({
          clock: ctx.clock,
          check: (name, run, from) =>
            ctx.check(
              mask(name),
              async () => {
                try {
                  return maskOutcome(await run());
                } catch (error) {
                  throw masked(error);
                }
              },
              from,
            ),
          skip: (name, reason) => ctx.skip(mask(name), mask(reason)),
          judgedOnEarlierRun: () => ctx.judgedOnEarlierRun(),
        });
      } catch (error) {
        throw masked(error);
      }
    },
  }));
}

export interface RunCasesOptions {
  suite: ConformSuiteName;
  clock: Clock;
  onCase?: (result: ConformCaseResult) => void;
  /**
   * aborted (SIGINT / SIGTERM): no case is started after it, and the one under way is left
   * unfinished (its result dropped), so the run returns at once with the cases finished
   */
  signal?: AbortSignal;
  /** `--strict`: a check that passes with a warning fails instead, its reason saying so */
  strict?: boolean;
}

/** How the reason of a warning that failed its check under `--strict` starts. */
export const STRICT_WARNING = 'warning, a failure with --strict: ';

/**
 * Runs the cases in order; a thrown error fails its check (a peer's bug must not end the suite).
 * Returns early, with the cases finished, when `signal` aborts.
 * @example const results = await runCases(cases, { suite: 'hooks', clock });
 */
export async function runCases(
  cases: readonly ConformCase[],
  options: RunCasesOptions,
): Promise<ConformCaseResult[]> {
  const results: ConformCaseResult[] = [];
  for (const item of cases) {
    if (options.signal?.aborted) break;
    const result = await untilAborted(runCase(item, options), options.signal);
    if (result === undefined) break;
    results.push(result);
    options.onCase?.(result);
  }
  return results;
}

/** `work`'s value, or undefined as soon as `signal` aborts (`work` then settles unheard). */
function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (signal === undefined) return work;
  let onAbort = (): void => undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

async function runCase(item: ConformCase, options: RunCasesOptions): Promise<ConformCaseResult> {
  const { clock } = options;
  const wallStart = performance.now();
  const protocolStart = clock.now();
  const steps: StepResult[] = [];
  let judgedOnEarlierRun = false;
  // a check's own protocol time, not the time since its case began: "[5.037s]" on a check
  // of a 3 s limit read as over it when earlier checks of the case had taken 5 s
  const push = (
    name: string,
    status: StepResult['status'],
    details: string[],
    wallMs: number,
    since = clock.now(),
  ) =>
    steps.push({
      index: steps.length,
      name,
      kind: 'expect',
      status,
      details,
      protocolMs: clock.now() - since,
      wallMs,
    });
  const ctx: CaseContext = {
    clock,
    async check(name, run, from) {
      const started = from?.wallMs ?? performance.now();
      const since = from?.protocolMs ?? clock.now();
      let outcome: CheckOutcome;
      try {
        outcome = await run();
      } catch (error) {
        if (endsTheRun(error)) throw error;
        outcome = [errorText(error)];
      }
      const wallMs = performance.now() - started;
      if (outcome && 'warn' in outcome) {
        // CI gates on the exit code: with --strict a warning is no pass
        if (options.strict) {
          push(name, 'failed', [`${STRICT_WARNING}${outcome.warn}`], wallMs, since);
          return false;
        }
        push(name, 'passed', [`warning: ${outcome.warn}`], wallMs, since);
        return true;
      }
      if (outcome && 'note' in outcome) {
        push(name, 'passed', [`note: ${outcome.note}`], wallMs, since);
        return true;
      }
      if (outcome && 'skip' in outcome) {
        push(name, 'skipped', [outcome.skip], wallMs, since);
        return true;
      }
      const reasons = outcome ?? [];
      push(name, reasons.length === 0 ? 'passed' : 'failed', reasons, wallMs, since);
      return reasons.length === 0;
    },
    skip(name, reason) {
      push(name, 'skipped', [reason], 0);
    },
    judgedOnEarlierRun() {
      judgedOnEarlierRun = true;
    },
  };
  try {
    await item.run(ctx);
  } catch (error) {
    if (endsTheRun(error)) throw error;
    push('case', 'failed', [errorText(error)], 0, protocolStart);
  }
  const failed = steps.some((s) => s.status === 'failed');
  const allSkipped = steps.length > 0 && steps.every((s) => s.status === 'skipped');
  const warnings = steps.flatMap((s) =>
    s.status === 'passed' ? s.details.filter((d) => d.startsWith('warning: ')) : [],
  );
  return {
    suite: options.suite,
    name: item.name,
    file: `spec ${item.spec.join(', ')}`,
    spec: item.spec,
    ok: !failed,
    steps,
    protocolMs: clock.now() - protocolStart,
    wallMs: performance.now() - wallStart,
    ...(allSkipped ? { skipped: steps[0]?.details[0] ?? 'skipped' } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(judgedOnEarlierRun ? { judgedOnEarlierRun: true as const } : {}),
  };
}

/**
 * An error no case's verdict: svc-cli could not set up its own side of a case (the port given
 * for its embedded endpoint is taken), so the run stops with that error (exit 2) rather than
 * count a failed case, which two CI jobs on one machine would read as a flaky contract
 * failure; or the peer stopped accepting connections mid-run (a fuzz run's peer died), so no
 * later case can say anything about it and the run stops (exit 3) instead of failing each one.
 */
function endsTheRun(error: unknown): boolean {
  return (
    error instanceof SvcError &&
    (error.code === 'SVC_E_PORT_IN_USE' || error.code === 'SVC_E_PEER_UNREACHABLE')
  );
}

/**
 * `{"a":1}` shortened for a reason line; an HTML error page by its title, where frameworks
 * name the exception (its first bytes are a doctype and meta tags).
 */
export function quote(text: string, max = 120): string {
  return quoteReplyBody(text, max);
}
