/**
 * Expectations of a payload sample, from its file name and an optional sidecar:
 * `customer-text.valid.json`, `...invalid.json`, `...warning.json`, and
 * `<name>.expect.json` = `{ "kind": "...", "errors": ["path"], "warnings": ["path"] }`.
 */
import { readFile } from 'node:fs/promises';
import type { ValidationResult } from './types.js';

export type Verdict = 'valid' | 'warning' | 'invalid';

export interface Expectation {
  verdict?: Verdict;
  kind?: string;
  /** Exactly these error paths (order does not matter). */
  errors?: string[];
  /** Exactly these warning paths. */
  warnings?: string[];
  /** Set when the sidecar itself cannot be read as JSON. */
  problem?: string;
}

/** The verdict of a result: invalid on errors, warning when only warnings, else valid. */
export function judgeResult(result: ValidationResult): Verdict {
  if (!result.ok) return 'invalid';
  return result.warnings.length > 0 ? 'warning' : 'valid';
}

/** `foo.invalid.json` -> `foo.invalid.expect.json` */
export function sidecarPath(file: string): string {
  return file.replace(/\.(json|ndjson|jsonl)$/, '.expect.json');
}

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Reads what a sample's name and sidecar expect; undefined when they say nothing. */
export async function readExpectation(file: string): Promise<Expectation | undefined> {
  const expectation: Expectation = {};
  const named = /\.(valid|warning|invalid)\.(json|ndjson|jsonl)$/.exec(file);
  if (named) expectation.verdict = named[1] as Verdict;
  let text: string | undefined;
  try {
    text = await readFile(sidecarPath(file), 'utf8');
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    let sidecar: Record<string, unknown> = {};
    try {
      sidecar = JSON.parse(text) as Record<string, unknown>;
    } catch {
      expectation.problem = `sidecar ${sidecarPath(file)} is not JSON`;
    }
    if (typeof sidecar.kind === 'string') expectation.kind = sidecar.kind;
    if (isStringArray(sidecar.errors)) expectation.errors = sidecar.errors;
    if (isStringArray(sidecar.warnings)) expectation.warnings = sidecar.warnings;
  }
  return Object.keys(expectation).length === 0 ? undefined : expectation;
}

const sameSet = (expected: readonly string[], actual: readonly string[]): boolean => {
  const a = [...new Set(expected)].sort();
  const b = [...new Set(actual)].sort();
  return a.length === b.length && a.every((v, i) => v === b[i]);
};

/** What differs between an expectation and a result (empty when it is met). */
export function compareExpectation(expectation: Expectation, result: ValidationResult): string[] {
  const mismatches: string[] = [];
  const verdict = judgeResult(result);
  if (expectation.problem !== undefined) mismatches.push(expectation.problem);
  if (expectation.verdict !== undefined && expectation.verdict !== verdict) {
    mismatches.push(`expected ${expectation.verdict}, got ${verdict}`);
  }
  if (expectation.kind !== undefined && expectation.kind !== result.kind) {
    mismatches.push(`expected kind ${expectation.kind}, got ${result.kind}`);
  }
  const errorPaths = result.errors.map((i) => i.path);
  if (expectation.errors !== undefined && !sameSet(expectation.errors, errorPaths)) {
    mismatches.push(
      `expected errors at [${expectation.errors.join(', ')}], got [${errorPaths.join(', ')}]`,
    );
  }
  const warningPaths = result.warnings.map((i) => i.path);
  if (expectation.warnings !== undefined && !sameSet(expectation.warnings, warningPaths)) {
    mismatches.push(
      `expected warnings at [${expectation.warnings.join(', ')}], got [${warningPaths.join(', ')}]`,
    );
  }
  return mismatches;
}
