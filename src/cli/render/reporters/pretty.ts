import type { ChalkInstance } from 'chalk';
import type { ConversationResult, StepResult } from '../../../conversation/runner.js';
import { plural } from '../../../plural.js';
import { escapeControlChars } from '../control-chars.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(3)}s`;

/** One line per step (a check or a cross), the diff under a failed step. */
export function formatStep(
  result: StepResult,
  c: ChalkInstance,
  /** `untimed`: the step judged work an earlier case did (its time is none of its own) */
  options: { skipReasons?: boolean; verbose?: boolean; untimed?: boolean | undefined } = {},
): string {
  // a failure's details quote what the peer sent or answered: no control characters of it
  const step = { ...result, details: result.details.map((d) => escapeControlChars(d)) };
  // a check that passed with a warning is not shown as done well: `!`, never `✓`
  // (a malformed event answered 200 would otherwise read as "✓ refused with a 4xx")
  const warned = step.status === 'passed' && step.details.some((d) => d.startsWith('warning: '));
  const mark = warned
    ? c.yellow('!')
    : step.status === 'passed'
      ? c.green('✓')
      : step.status === 'failed'
        ? c.red('✗')
        : c.dim('-');
  // conform: a passed check may carry a note of what it measured ("arrived at +3.004 s")
  const note =
    step.status === 'passed' ? step.details.find((d) => d.startsWith('note: ')) : undefined;
  // a step named by its author says what it does beside the name (`answer`: which answer?),
  // and carries its number as the unnamed ones do (`2. answer`): the fixture's step to look for
  const numbered = step.what === undefined ? step.name : `${step.index + 1}. ${step.name}`;
  const named = step.what === undefined ? numbered : `${numbered} ${c.dim(`(${step.what})`)}`;
  const name =
    step.status === 'skipped'
      ? c.dim(numbered)
      : note === undefined
        ? named
        : `${named}: ${note.slice('note: '.length)}`;
  const head = options.untimed
    ? `    ${mark} ${name}`
    : `    ${mark} ${name} ${c.dim(`[${secs(step.protocolMs)}]`)}`;
  // --verbose: what the step gave (the payload an expectation matched, a delivery's verdict),
  // as later steps reference it (${name.path})
  if (options.verbose && step.status === 'passed' && step.value !== undefined)
    return `${head}\n        ${c.dim(`→ ${valueLine(step.value)}`)}`;
  // conform's skips say why (no control API ...); replay's after a failure need no reason
  if (step.status === 'skipped' && options.skipReasons && step.details[0] !== undefined)
    return `${head}\n        ${c.dim(step.details[0])}`;
  // conform: a passed check may carry a warning (something the spec allows, a careful peer avoids)
  const warnings = step.details.filter((d) => d.startsWith('warning: '));
  if (step.status === 'passed' && warnings.length > 0)
    return [head, ...warnings.map((d) => `        ${c.yellow(d)}`)].join('\n');
  if (step.status !== 'failed') return head;
  // The first section the failure cites, as the one explain line that helps (rustc --explain);
  // a broken invariant is explained by its own name
  const text = [step.name, ...step.details].join('\n');
  const cited =
    /^([a-z-]+) \(spec [\d.]+\): .*--no-invariant \1 switches it off/m.exec(text)?.[1] ??
    /\(spec (\d+(?:\.\d+)?)/.exec(text)?.[1];
  return [
    head,
    ...step.details.map((d) => `        ${c.red(d)}`),
    ...(cited === undefined ? [] : [`        ${c.dim(`more: svc-cli explain ${cited}`)}`]),
  ].join('\n');
}

/**
 * The conversation's heading line, after its steps ran. In a terminal narrower than the line
 * (`columns`), the file and figures go on the line below the name instead of breaking it;
 * narrower still (80 columns: a path under fixtures/ and the figures are about 95), the file
 * and the figures take a line each.
 */
export function formatConversation(
  /** `judgedOnEarlierRun`: a conform case that judged an earlier case's traffic (fuzz) */
  result: ConversationResult & { judgedOnEarlierRun?: true },
  c: ChalkInstance,
  columns = Number.POSITIVE_INFINITY,
): string {
  const where = result.file ? `${result.file} · ` : '';
  if (result.skipped !== undefined) {
    return `${c.dim('-')} ${c.bold(result.name)}  ${c.dim(`(${result.file ?? 'skipped'})`)}\n    ${c.dim(`skipped: ${result.skipped}`)}`;
  }
  const mark = result.ok ? c.green('✓') : c.red('✗');
  // the conversation's own steps, as `record to-fixture` counts them: a failed invariant check
  // and the note on a setup left out (index -1) are listed under them but are none of them
  const own = result.steps.filter((s) => s.invariants !== true && s.index >= 0);
  const steps = own.length;
  // a pass with steps it could not check (a real platform without the control API) is a
  // pass in part: said beside the ✓, not only in the step lines under it
  const unchecked = result.ok ? own.filter((s) => s.status === 'skipped').length : 0;
  // a case that judged the traffic of the one above took no time: "protocol 0.000s" would
  // read as if nothing was sent
  const times = result.judgedOnEarlierRun
    ? 'judged on the run above'
    : `protocol ${secs(result.protocolMs)} · wall ${Math.round(result.wallMs)} ms`;
  const figures = `${plural(steps, 'step')}${unchecked > 0 ? `, ${unchecked} skipped` : ''} · ${times}`;
  const details = `(${where}${figures})`;
  if (2 + result.name.length + 2 + details.length <= columns)
    return `${mark} ${c.bold(result.name)}  ${c.dim(details)}`;
  if (4 + details.length <= columns || !result.file)
    return `${mark} ${c.bold(result.name)}\n    ${c.dim(details)}`;
  return `${mark} ${c.bold(result.name)}\n    ${c.dim(result.file)}\n    ${c.dim(`(${figures})`)}`;
}

/** The closing line CI systems read: `N passed, N failed`. */
export function formatSummary(
  results: readonly ConversationResult[],
  c: ChalkInstance,
  /** the run's elapsed wall time (conversations replayed at once overlap); default their sum */
  elapsedMs?: number,
): string {
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  const passed = results.filter((r) => r.ok).length - skipped;
  const failed = results.length - passed - skipped;
  const wall = elapsedMs ?? results.reduce((sum, r) => sum + r.wallMs, 0);
  const line = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  const tolerance = results.find((r) => r.timingToleranceMs !== undefined)?.timingToleranceMs;
  // said only of figures a step compared: a fixture made from a recording has none
  const figures = results.reduce((n, r) => n + (r.timingFigures ?? 0), 0);
  const note =
    tolerance === undefined || figures === 0
      ? ''
      : `\n${c.dim(`real time: ${plural(figures, 'timing figure')} (elapsedMs ...) compared within ±${tolerance} protocol ms`)}`;
  return `\n${c.dim(`${plural(results.length, 'conversation')} in ${Math.round(wall)} ms`)}${note}${formatObservability(results, c)}\n${failed > 0 ? c.red(line) : passed === 0 ? c.yellow(line) : c.green(line)}`;
}

/**
 * With a real peer or unobservable parties: how many expectations were checked and skipped,
 * and where what a real peer received was read from.
 */
function formatObservability(results: readonly ConversationResult[], c: ChalkInstance): string {
  const counted = results.filter((r) => r.expectations !== undefined);
  if (counted.length === 0) return '';
  const checked = counted.reduce((sum, r) => sum + (r.expectations?.checked ?? 0), 0);
  const skipped = counted.reduce((sum, r) => sum + (r.expectations?.skipped ?? 0), 0);
  const peers = [...new Set(counted.flatMap((r) => r.realPeers ?? []))];
  // no expect step at all: "0 checked" read as if a failed step had checked nothing
  const lines =
    checked + skipped === 0
      ? []
      : [`expectations: ${checked} checked, ${skipped} skipped (not observable)`];
  if (peers.length > 0)
    lines.push(
      `${peers.join(', ')} ${peers.length === 1 ? 'is' : 'are'} yours: what ${peers.length === 1 ? 'it' : 'they'} received is read from the requests the simulator sent and the replies it got`,
    );
  const runs = results.flatMap((r) => (r.runId === undefined ? [] : [r.runId]));
  const first = runs[0];
  if (first !== undefined)
    lines.push(
      `run id ${first}: fresh chat ids from ${first * 1000 + 1}${runs.length > 1 ? `, one block of 1000 per conversation (run ids ${first}-${runs.at(-1)})` : ''}; --run-id ${first} repeats them`,
    );
  return lines.length === 0 ? '' : `\n${c.dim(lines.join('\n'))}`;
}

/** A step's value on one line: its JSON, cut at 200 characters, no control characters. */
function valueLine(value: unknown): string {
  const text = escapeControlChars(JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}
