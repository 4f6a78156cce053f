/**
 * The core of `svc-cli validate`: walks the inputs, validates each payload and emits one
 * `result` event per payload, then a `summary`. It never prints (the CLI renders); the
 * CLI renders the events as they come, so a 100k-line stream is never held in memory.
 */
import type { Readable } from 'node:stream';
import { EXIT_CODES } from '../errors.js';
import { compact } from '../compact.js';
import { compareExpectation, judgeResult, readExpectation, type Verdict } from './expectations.js';
import { walkInputs, type InputRecord } from './inputs.js';
import { getKind, validate, validateAuto } from './validate.js';
import type { ContractIssue, ValidationResult } from './types.js';

export interface ValidateInputsOptions {
  inputs: readonly string[];
  cwd?: string;
  stdin?: Readable;
  /** Validate every payload as this kind instead of detecting it. */
  kind?: string;
  strict?: boolean;
  /** Compare each verdict with the sample's file name and sidecar; mismatches fail the run. */
  checkExpectations?: boolean;
  maxDocumentBytes?: number;
}

export interface ValidateResultEvent {
  type: 'result';
  source: string;
  line?: number;
  kind: string;
  verdict: Verdict | 'unreadable';
  errors: ContractIssue[];
  warnings: ContractIssue[];
  /** With checkExpectations: what the sample expected, and what differs (empty: met). */
  expected?: Verdict;
  mismatches?: string[];
}

export interface ValidateSummaryEvent {
  type: 'summary';
  payloads: number;
  valid: number;
  warning: number;
  invalid: number;
  unreadable: number;
  /** With checkExpectations: samples whose expectation was checked / not met. */
  checked?: number;
  unmet?: number;
  exitCode: number;
}

export type ValidateEvent = ValidateResultEvent | ValidateSummaryEvent;

function toEvent(
  source: string,
  line: number | undefined,
  result: ValidationResult,
  verdict: Verdict,
): ValidateResultEvent {
  const event: ValidateResultEvent = {
    type: 'result',
    source,
    kind: result.kind,
    verdict,
    errors: result.errors,
    warnings: result.warnings,
  };
  if (line !== undefined) event.line = line;
  return event;
}

/**
 * Validates every payload of the inputs.
 * @example for await (const e of validateInputs({ inputs: ['-'], stdin })) if (e.type === 'summary') ...
 */
export async function* validateInputs(
  options: ValidateInputsOptions,
): AsyncGenerator<ValidateEvent> {
  for await (const batch of validateInputBatches(options)) yield* batch;
}

/**
 * `validateInputs` in batches: the events of a chunk of NDJSON lines at once, so a consumer
 * pays one await per chunk rather than one per payload (the CLI).
 * @example for await (const events of validateInputBatches({ inputs: ['big.ndjson'] })) for (const e of events) render(e);
 */
export async function* validateInputBatches(
  options: ValidateInputsOptions,
): AsyncGenerator<ValidateEvent[]> {
  // An unknown --kind is a usage error before any input is read.
  if (options.kind !== undefined) getKind(options.kind);
  const validateOptions = { strict: options.strict ?? false };
  const counts = {
    payloads: 0,
    valid: 0,
    warning: 0,
    invalid: 0,
    unreadable: 0,
    checked: 0,
    unmet: 0,
    invalidUnchecked: 0,
  };
  const walk = walkInputs({
    inputs: options.inputs,
    ...compact({
      cwd: options.cwd,
      stdin: options.stdin,
      maxDocumentBytes: options.maxDocumentBytes,
    }),
  });
  /** The event of one record; `expectation` is its sidecar's, read by the caller. */
  const eventOf = (
    record: InputRecord,
    expectation: Awaited<ReturnType<typeof readExpectation>>,
  ): ValidateResultEvent => {
    if (record.type === 'unreadable') {
      counts.unreadable++;
      const event: ValidateResultEvent = {
        type: 'result',
        source: record.source,
        kind: 'unknown',
        verdict: 'unreadable',
        errors: [
          { path: '', code: record.code, rule: record.message, spec: '', severity: 'error' },
        ],
        warnings: [],
      };
      if (record.line !== undefined) event.line = record.line;
      return event;
    }
    counts.payloads++;
    const kind = options.kind ?? expectation?.kind;
    const result =
      kind === undefined
        ? validateAuto(record.value, validateOptions)
        : validate(kind, record.value, validateOptions);
    const verdict = judgeResult(result);
    counts[verdict]++;
    const event = toEvent(record.source, record.line, result, verdict);
    if (options.checkExpectations && expectation !== undefined) {
      counts.checked++;
      if (expectation.verdict !== undefined) event.expected = expectation.verdict;
      event.mismatches = compareExpectation(expectation, result);
      if (event.mismatches.length > 0) counts.unmet++;
    } else if (verdict === 'invalid') {
      counts.invalidUnchecked++;
    }
    return event;
  };
  for await (const records of walk) {
    const events: ValidateEvent[] = [];
    for (const record of records) {
      // A sample's sidecar may name its kind: widget arguments carry no discriminator.
      const expectation =
        record.type === 'payload' && record.file !== undefined && record.line === undefined
          ? await readExpectation(record.file)
          : undefined;
      events.push(eventOf(record, expectation));
    }
    yield events;
  }
  // Without expectations an invalid payload fails the run; with them, a payload without an
  // expectation is judged on its own and a sample that does not match its name fails.
  const failed = counts.unmet > 0 || counts.invalidUnchecked > 0;
  const exitCode =
    counts.unreadable > 0 ? EXIT_CODES.input : failed ? EXIT_CODES.contract : EXIT_CODES.ok;
  const summary: ValidateSummaryEvent = {
    type: 'summary',
    payloads: counts.payloads,
    valid: counts.valid,
    warning: counts.warning,
    invalid: counts.invalid,
    unreadable: counts.unreadable,
    exitCode,
  };
  if (options.checkExpectations) {
    summary.checked = counts.checked;
    summary.unmet = counts.unmet;
  }
  yield [summary];
}
