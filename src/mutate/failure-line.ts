import { stripVTControlCharacters } from 'node:util';

/**
 * A line where a test runner says a test failed: vitest's and node:test's `×`/`✖`, `FAIL`
 * (vitest, jest), pytest's `FAILED` and `FAILURES` banner, TAP's `not ok`, jest's `●`,
 * mocha's `1) name`, go's `--- FAIL:`.
 */
const FAILED_TEST =
  /^\s*(?:FAIL(?:ED)?\b|not ok\b|[×✗✖]\s|●\s|\d+\) \S)|={3,} FAILURES ={3,}|^\s*--- FAIL: /;

/**
 * A line that says why: an error with its message (`AssertionError: expected 2 to be 1`,
 * `AssertionError [ERR_ASSERTION]: ...`, `TypeError: fetch failed`), pytest's `E   assert 2 == 1`,
 * a TAP diagnostic's `error: '...'` (node:test when piped).
 */
const WHY = /^\s*(?:[A-Z]\w*)?(?:Error|Exception)(?: \[\w+\])?: \S|^E {2,}\S|^\s*error: '/;

/** TAP's `error: |-`: the message is the block's first line, below it. */
const WHY_BELOW = /^\s*error: [|>]-?\s*$/;

/** A partial line longer than this is judged as it is: a runner's lines are short. */
const MAX_LINE = 4000;

/** Finds the line of a test command's output that says why it failed, fed as it comes. */
export interface FailureScanner {
  /** a chunk of one stream (`stream` keeps stdout's and stderr's partial lines apart) */
  feed(stream: 'stdout' | 'stderr', chunk: string): void;
  /** the line found once the output ended; undefined when none looked like a failure */
  line(): string | undefined;
}

/**
 * The line under a killed mutant: the first error message at or after the first failed test
 * (the assertion that failed, or the exception of a crash), else that failed test's line, else
 * the first error message of a run that named no test (a crash before any ran). A summary or
 * timing line (`Duration 6.36s`, `1 failed in 0.12s`) is never it.
 * @example const s = createFailureScanner(); s.feed('stdout', out); s.line() // 'AssertionError: ...'
 */
export function createFailureScanner(): FailureScanner {
  const partial = { stdout: '', stderr: '' };
  let failedTest: string | undefined;
  let why: string | undefined;
  let firstWhy: string | undefined;
  let whyBelow = false;
  const judge = (raw: string): void => {
    if (why !== undefined) return;
    const line = stripVTControlCharacters(raw).trim();
    if (line === '') return;
    if (failedTest === undefined && FAILED_TEST.test(line)) failedTest = line;
    const below = whyBelow;
    whyBelow = WHY_BELOW.test(line);
    if (!below && !WHY.test(line)) return;
    firstWhy ??= line;
    if (failedTest !== undefined) why = line;
  };
  return {
    feed(stream, chunk) {
      if (why !== undefined) return;
      const lines = (partial[stream] + chunk).split('\n');
      partial[stream] = lines.pop() ?? '';
      if (partial[stream].length > MAX_LINE) {
        judge(partial[stream]);
        partial[stream] = '';
      }
      for (const line of lines) judge(line);
    },
    line() {
      judge(partial.stdout);
      judge(partial.stderr);
      partial.stdout = partial.stderr = '';
      // a banner says nothing of the test: pytest's `=== FAILURES ===` without an `E` line
      const test = failedTest !== undefined && /^={3,}/.test(failedTest) ? undefined : failedTest;
      return why ?? test ?? firstWhy;
    },
  };
}

/** The line of a whole output that says why the run failed (`createFailureScanner`). */
export function failureLineOf(output: string): string | undefined {
  const scanner = createFailureScanner();
  scanner.feed('stdout', output);
  return scanner.line();
}
