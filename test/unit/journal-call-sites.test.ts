/**
 * Every exchange is journaled in one place: `recordExchange` (src/journal/record-exchange.ts)
 * is the only caller of a journal's `record`. A second caller would be a second idea of
 * what an exchange record is; this test finds every `.record(` call in src/ with
 * TypeScript's parser and fails on one whose receiver is not known to be something else.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Receivers of `.record(` that are not journals, and what they are. */
const NOT_JOURNALS: Record<string, string> = {
  z: 'zod: z.record(key, value) is a schema',
  fc: 'fast-check: fc.record({...}) is an arbitrary',
  't.answers': 'src/load/run.ts: a latency histogram',
  't.window': 'src/load/run.ts: a latency histogram',
  't.cutShort': 'src/load/run.ts: a latency histogram of attempts a stop cut short',
  series: 'src/load/run.ts: a latency histogram',
  't.byAttempt[attempt.attempt - 1]': 'src/load/run.ts: a latency histogram per attempt',
  all: 'src/load/figures.ts: a latency histogram, merged',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });
}

interface CallSite {
  at: string;
  receiver: string;
}

/** Every `<receiver>.record(...)` / `<receiver>?.record(...)` call in a file. */
function recordCalls(file: string): CallSite[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: CallSite[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'record'
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({
        at: `${file.split('\\').join('/')}:${line}`,
        receiver: node.expression.expression.getText(source),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('journal call sites', () => {
  const calls = sourceFiles('src').flatMap(recordCalls);

  it('has exactly one caller of a journal record(): recordExchange', () => {
    const journalCalls = calls.filter((call) => NOT_JOURNALS[call.receiver] === undefined);
    expect(
      journalCalls.map((call) => call.at.replace(/:\d+$/, '')),
      `journal.record( outside recordExchange (call recordExchange from src/journal/ instead): ${journalCalls.map((c) => `${c.at} ${c.receiver}.record(`).join(', ')}`,
    ).toEqual(['src/journal/record-exchange.ts']);
  });

  it('finds the calls it knows are not journals (the parser sees them)', () => {
    expect(calls.some((call) => call.receiver === 'z')).toBe(true);
    expect(calls.some((call) => call.receiver === 't.answers')).toBe(true);
  });
});
