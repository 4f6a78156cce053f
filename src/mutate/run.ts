/**
 * A mutation run over the simulator (`svc-cli mutate`): the user's test command once against
 * the clean simulator (it must pass), then once per mutant with `SVC_MUTANT` set. A mutant
 * the command fails under is killed; one it passes under survived: the suite would not notice
 * the platform behaving that way. Never prints: results are handed to `onResult`.
 */
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { SvcError } from '../errors.js';
import { MUTANTS, type MutantInfo } from '../platform/mutants.js';
import { createFailureScanner } from './failure-line.js';

/** `not-exercised`: the run's coverage shows nothing the mutant changes, so it is not run */
export type MutantOutcome = 'killed' | 'survived' | 'timeout' | 'not-exercised';

export interface MutantResult extends MutantInfo {
  outcome: MutantOutcome;
  /** the command's exit code (null when it was stopped) */
  exitCode: number | null;
  wallMs: number;
  /**
   * a killed run's last lines of output (stdout and stderr as they came): what failed, so a
   * real kill reads apart from a crash; absent for any other outcome
   */
  output?: string;
  /**
   * a killed run's line that says why: the first failed assertion or error after the first
   * failed test (`createFailureScanner`); absent when no line looked like one
   */
  failure?: string;
}

export interface MutationReport {
  clean: { wallMs: number };
  results: MutantResult[];
  killed: number;
  survived: number;
  timedOut: number;
  notExercised: number;
  /** (killed + timed out) / mutants run x 100, one decimal */
  score: number;
  /**
   * a run the signal stopped: the selected mutants without a result (the one running when it
   * came, and those never started), in catalogue order; absent when the run was not stopped
   */
  unfinished?: MutantInfo[];
}

/**
 * Whether the score is below `--min-score`, on the exact ratio: the score shown is floored to
 * a tenth, so 2 of 3 reads 66.6 while it meets a minimum of 66.65.
 * @example scoreBelow({ killed: 2, timedOut: 0, survived: 1 }, 66.65) // false
 */
export function scoreBelow(
  report: Pick<MutationReport, 'killed' | 'timedOut' | 'survived'>,
  minScore: number,
): boolean {
  const run = report.killed + report.timedOut + report.survived;
  return run === 0 ? minScore > 0 : (report.killed + report.timedOut) * 100 < minScore * run;
}

export interface MutateOptions {
  /** the test command: argv, or one string run by the shell */
  command: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** mutants run at once (default 1: a suite may bind fixed ports) */
  jobs?: number;
  /** only these mutants: by name, family or spec section */
  only?: readonly string[];
  /** leave these out: by name, family or spec section */
  skip?: readonly string[];
  /** stop a mutant's run after this long (default 3x the clean run + 5 s): a timeout */
  timeoutMs?: number;
  /**
   * coverage item ids the suite exercised (`svc-cli coverage` of its recording): a mutant
   * none of whose `exercisedBy` items is among them is reported `not-exercised`, not run
   */
  exercised?: ReadonlySet<string>;
  /** Ctrl-C: the running commands are stopped with all they started, and no mutant starts */
  signal?: AbortSignal;
  onClean?: (wallMs: number) => void;
  onResult?: (result: MutantResult) => void;
}

const matches = (m: MutantInfo, words: readonly string[]): boolean =>
  words.some((w) => {
    const word = w.replace(/^spec\s*/i, '');
    return m.name === word || m.family === word || m.spec === word;
  });

/**
 * The mutants a run takes, in catalogue order.
 * @example selectMutants({ only: ['redelivery'] }).map((m) => m.name)
 */
export function selectMutants(options: Pick<MutateOptions, 'only' | 'skip'>): MutantInfo[] {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  for (const word of [...only, ...skip]) {
    if (!MUTANTS.some((m) => matches(m, [word])))
      throw new SvcError(
        'SVC_E_UNKNOWN_MUTANT',
        `Could not select mutants by "${word}": no mutant has that name, family or spec section.`,
        'List them with `svc-cli mutate --list`.',
      );
  }
  return MUTANTS.filter((m) => (only.length === 0 || matches(m, only)) && !matches(m, skip));
}

interface Exit {
  code: number | null;
  timedOut: boolean;
  wallMs: number;
  /** the last lines the command wrote (stdout and stderr as they came), for a failed clean run */
  tail: string;
  /** the line that says why it failed (`createFailureScanner`) */
  said?: string;
}

/** How much of a run's output is kept: the end of a failing suite says why it failed. */
const TAIL_CHARS = 2000;

/** The last `lines` lines of `text`, without colour codes (JUnit XML cannot hold them). */
function tailOf(text: string, lines: number): string {
  return stripVTControlCharacters(text).trimEnd().split('\n').slice(-lines).join('\n');
}

/** The last `lines` lines of `text`, each indented for an error message. */
function lastLines(text: string, lines = 15): string {
  return tailOf(text, lines)
    .split('\n')
    .map((line) => `  | ${line}`)
    .join('\n');
}

/** How many lines of a killed run's output a result keeps. */
const KILLED_TAIL_LINES = 10;

/**
 * Whether a killed run's output says a port was taken: with `--jobs` above 1, two runs of a
 * suite that binds a fixed port fail each other, and the kill says nothing of the suite.
 * @example portTaken('Error: listen EADDRINUSE: address already in use :::3000') // true
 */
export function portTaken(output: string | undefined): boolean {
  return output !== undefined && /EADDRINUSE|address already in use/i.test(output);
}

function runOnce(
  options: MutateOptions,
  mutant: string,
  timeoutMs: number | undefined,
): Promise<Exit> {
  const started = performance.now();
  const [file, ...args] = options.command;
  const shell = options.command.length === 1;
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, {
      cwd: options.cwd ?? process.cwd(),
      // an empty SVC_MUTANT is the clean simulator, whatever the caller's environment says
      env: { ...(options.env ?? process.env), SVC_MUTANT: mutant },
      // read, not shown: a failing clean run is explained by the end of its output
      stdio: ['ignore', 'pipe', 'pipe'],
      shell,
      // its own process group: a timeout stops the command and everything it started
      detached: process.platform !== 'win32',
    });
    let timedOut = false;
    let tail = '';
    // the line that says why it failed may be far above the tail (vitest ends on its summary)
    const failure = createFailureScanner();
    const keep =
      (stream: 'stdout' | 'stderr') =>
      (chunk: Buffer): void => {
        const text = chunk.toString('utf8');
        tail = (tail + text).slice(-TAIL_CHARS);
        failure.feed(stream, text);
      };
    child.stdout?.on('data', keep('stdout'));
    child.stderr?.on('data', keep('stderr'));
    const stop = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32')
          process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            stop();
          }, timeoutMs);
    // its own process group hears no Ctrl-C from the terminal: pass the stop on
    options.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(
        new SvcError(
          'SVC_E_MUTATE_CLEAN_RUN',
          `Could not run ${options.command.join(' ')}: ${error.message}.`,
          'Give the test command after --, e.g. svc-cli mutate -- npm test',
        ),
      );
    });
    // 'close', not 'exit': the output is read to its end
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      const said = failure.line();
      resolve({
        code,
        timedOut,
        wallMs: performance.now() - started,
        tail,
        ...(said === undefined ? {} : { said }),
      });
    });
  });
}

/** A wall time for a message: ms below a second, else seconds. */
const formatMs = (ms: number): string =>
  ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs the command clean, then under each selected mutant (`jobs` at once); results in
 * catalogue order.
 * @example await runMutation({ command: ['npx', 'vitest', 'run'], only: ['redelivery'] })
 */
export async function runMutation(options: MutateOptions): Promise<MutationReport> {
  const mutants = selectMutants(options);
  const clean = await runOnce(options, '', undefined);
  if (options.signal?.aborted)
    return {
      clean: { wallMs: Math.round(clean.wallMs) },
      results: [],
      killed: 0,
      survived: 0,
      timedOut: 0,
      notExercised: 0,
      score: 0,
      unfinished: mutants,
    };
  if (clean.code !== 0) {
    const output =
      clean.tail.trim() === ''
        ? ' It printed nothing.'
        : ` Its last output:\n${lastLines(clean.tail)}`;
    throw new SvcError(
      'SVC_E_MUTATE_CLEAN_RUN',
      `Could not start the mutation run: the test command exited ${clean.code ?? 'on a signal'} against the clean simulator.${output}`,
      'Make the suite pass without a mutant first (svc-cli mutate runs it with SVC_MUTANT empty).',
    );
  }
  // a limit the clean run does not keep stops every mutant's run, and a stopped run counts
  // as killed: a perfect score for nothing
  if (options.timeoutMs !== undefined && clean.wallMs >= options.timeoutMs)
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not start the mutation run: the clean run took ${formatMs(clean.wallMs)}, longer than --timeout ${formatMs(options.timeoutMs)}; every mutant's run would be stopped and counted as killed.`,
      `Give --timeout more than the clean run (e.g. --timeout ${Math.ceil((clean.wallMs * 3 + 5000) / 1000)}s), or leave it out: 3x the clean run + 5 s.`,
    );
  options.onClean?.(clean.wallMs);
  const timeoutMs = options.timeoutMs ?? Math.ceil(clean.wallMs * 3 + 5000);
  const jobs = Math.max(1, Math.floor(options.jobs ?? 1));
  const results = new Array<MutantResult | undefined>(mutants.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < mutants.length && !options.signal?.aborted) {
      const index = next++;
      const mutant = mutants[index]!;
      if (options.exercised && !mutant.exercisedBy.some((id) => options.exercised!.has(id))) {
        const result: MutantResult = {
          ...mutant,
          outcome: 'not-exercised',
          exitCode: null,
          wallMs: 0,
        };
        results[index] = result;
        options.onResult?.(result);
        continue;
      }
      const exit = await runOnce(options, mutant.name, timeoutMs);
      if (options.signal?.aborted) return; // stopped, not killed: no result
      const outcome = exit.timedOut ? 'timeout' : exit.code === 0 ? 'survived' : 'killed';
      const result: MutantResult = {
        ...mutant,
        outcome,
        exitCode: exit.code,
        wallMs: Math.round(exit.wallMs),
        // why it failed: a failed assertion, or a crash that says nothing of the suite
        ...(outcome === 'killed' && exit.tail.trim() !== ''
          ? { output: tailOf(exit.tail, KILLED_TAIL_LINES) }
          : {}),
        ...(outcome === 'killed' && exit.said !== undefined ? { failure: exit.said } : {}),
      };
      results[index] = result;
      options.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, mutants.length) }, worker));
  const done = results.filter((r): r is MutantResult => r !== undefined);
  const killed = done.filter((r) => r.outcome === 'killed').length;
  const timedOut = done.filter((r) => r.outcome === 'timeout').length;
  const survived = done.filter((r) => r.outcome === 'survived').length;
  const run = killed + timedOut + survived;
  return {
    clean: { wallMs: Math.round(clean.wallMs) },
    results: done,
    killed,
    survived,
    timedOut,
    notExercised: done.length - run,
    // to a tenth, down: a score never reads above what --min-score compares (79.96 is not 80.0)
    score: run === 0 ? 0 : Math.floor(((killed + timedOut) / run) * 1000) / 10,
    ...(options.signal?.aborted
      ? { unfinished: mutants.filter((_, index) => results[index] === undefined) }
      : {}),
  };
}
