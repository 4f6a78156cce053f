/**
 * Every run in the reports a CI run publishes (replay, conform): one a signal cut short is an
 * entry of its own, marked, so a timed-out job's report still lists the whole suite
 * (docs/ci.md); one without a chat to draw is listed in the HTML report with why.
 */
import type { ConversationResult } from '../../conversation/runner.js';
import type { ReportRun } from '../../trace/html.js';
import type { JunitResult } from './reporters/junit.js';

/** The message on each run a signal stopped (JUnit `<error message>`, JSON `interrupted`). */
export const INTERRUPTED = 'interrupted before it finished';

/**
 * The entry of a run that did not finish: no step, no time, marked interrupted (`more`: what
 * it got through, after the message).
 * @example unfinished('greeting', 'fixtures/conversations/greeting.yaml')
 */
export function unfinished(name: string, file?: string, more?: string): JunitResult {
  return {
    name,
    ...(file === undefined ? {} : { file }),
    ok: false,
    interrupted: more === undefined ? INTERRUPTED : `${INTERRUPTED}: ${more}`,
    steps: [],
    protocolMs: 0,
    wallMs: 0,
  };
}

const mark = (status: ConversationResult['steps'][number]['status']): string =>
  status === 'passed' ? '✓' : status === 'failed' ? '✗' : '-';

/** Why a run has no chat of its own in the recording. */
function whyNoChat(r: JunitResult): string {
  // replay names its journal run, and one that opened a chat is drawn with it
  if (r.interrupted !== undefined)
    return r.run === undefined
      ? `${r.interrupted} (what it sent so far, if anything, is drawn above)`
      : `${r.interrupted}: it opened no chat before it was stopped`;
  if (r.skipped !== undefined) return `not run: ${r.skipped}`;
  if (r.steps.some((s) => s.kind === 'customer'))
    return 'no chat to draw: its customer message opened none (the platform refused it)';
  return 'no chat to draw: it checked the status URL, events or hooks without opening a chat';
}

/**
 * A run as the HTML report lists it when none of its chats is in the recording.
 * @example reportRunOf(result) // { name: 'status', verdict: 'passed', steps: ['✓ 1. GET /_sim/state'], why: '…' }
 */
export function reportRunOf(r: JunitResult): ReportRun {
  return {
    ...(r.run === undefined ? {} : { run: r.run }),
    name: r.name,
    verdict:
      r.interrupted !== undefined
        ? 'interrupted'
        : r.skipped !== undefined
          ? 'skipped'
          : r.ok
            ? 'passed'
            : 'failed',
    // a step's name starts with its number, as replay prints it
    steps: r.steps.map((s) => `${mark(s.status)} ${s.name}`),
    why: whyNoChat(r),
    ...(r.interrupted === undefined ? {} : { interrupted: r.interrupted }),
    ...(r.ok || r.interrupted !== undefined
      ? {}
      : {
          failures: r.steps
            // a broken invariant is drawn as a violation already
            .filter((s) => s.status === 'failed' && s.invariants !== true)
            .map((s) => ({ step: s.name, details: s.details })),
        }),
  };
}
