/**
 * Comments and docs that point somewhere: a reader of the package has no ticket tracker, so a
 * comment says why instead of naming a ticket; and a path a comment or a doc names must exist,
 * or the reader is sent to a file that moved.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SKIP = new Set(['node_modules', 'dist', 'dist-bin', '.tmp', '.scratch']);
/** skipped at the top only: `npm run coverage` writes coverage/, src/coverage/ is source */
const SKIP_AT_TOP = new Set(['coverage']);

/** Every file under `dir`, as a path relative to the repository root. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name) || (dir === '.' && SKIP_AT_TOP.has(name))) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

/** The comments of a source file: TypeScript's scanner for scripts, a pattern for CSS/HTML. */
function commentsOf(file: string): { line: number; text: string }[] {
  const text = readFileSync(file, 'utf8');
  const lineOf = (pos: number): number => text.slice(0, pos).split('\n').length;
  if (/\.(ts|js|mjs|cjs)$/.test(file)) {
    const scanner = ts.createScanner(
      ts.ScriptTarget.Latest,
      false,
      ts.LanguageVariant.Standard,
      text,
    );
    const found: { line: number; text: string }[] = [];
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      if (
        kind === ts.SyntaxKind.SingleLineCommentTrivia ||
        kind === ts.SyntaxKind.MultiLineCommentTrivia
      ) {
        found.push({ line: lineOf(scanner.getTokenStart()), text: scanner.getTokenText() });
      }
    }
    return found;
  }
  const pattern = file.endsWith('.html') ? /<!--[\s\S]*?-->/g : /\/\*[\s\S]*?\*\//g;
  return [...text.matchAll(pattern)].map((m) => ({ line: lineOf(m.index), text: m[0] }));
}

const sourceFiles = [...walk('src'), ...walk('scripts')].filter((f) =>
  /\.(ts|js|mjs|cjs|css|html)$/.test(f),
);

/** `issue 12`, `issues 8, 20`, `#12`; inline code is left out (`#3` there is a journal seq). */
const TICKET = /\bissues? #?\d+|(?:^|[\s(])#\d+\b/i;

describe('comments name no ticket', () => {
  it('no comment in src/ or scripts/ names an issue number', () => {
    const found = sourceFiles.flatMap((file) =>
      commentsOf(file)
        .filter((c) => TICKET.test(c.text.replace(/`[^`\n]*`/g, '')))
        .map((c) => `${file}:${c.line}: ${c.text.split('\n')[0]!.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the check sees a ticket in a comment and not in inline code', () => {
    expect(TICKET.test('// fixed for issue 12')).toBe(true);
    expect(TICKET.test('/* see #12 */')).toBe(true);
    expect(TICKET.test('// `#3  attempt 2`'.replace(/`[^`\n]*`/g, ''))).toBe(false);
  });
});

const TOP = ['src', 'test', 'docs', 'scripts'];
const existing = new Set([...TOP, ...TOP.flatMap(walk)]);

/** A named path as a pattern: `*`, `**`, `<placeholder>` and `{a,b}` stand for names. */
function pathPattern(path: string): RegExp {
  let source = '';
  for (const part of path.split(/(\*\*|\*|<[^>]*>|\{[^}]*\})/)) {
    if (part === '**') source += '.*';
    else if (part === '*') source += '[^/]*';
    else if (part.startsWith('<')) source += '[^/]+';
    else if (part.startsWith('{')) {
      source += `(?:${part
        .slice(1, -1)
        .split(',')
        .map((p) => p.replace(/[.+?^$()|[\]\\]/g, '\\$&'))
        .join('|')})`;
    } else source += part.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Whether a path named in prose exists (a folder may be named with its trailing slash). */
function exists(named: string): boolean {
  const path = named.replace(/\/$/, '');
  if (!/[*<{]/.test(path)) return existing.has(path);
  const pattern = pathPattern(path);
  return [...existing].some((p) => pattern.test(p));
}

/** Paths under the four top folders named in `text`, trailing punctuation left off. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w./@-])(?:src|test|docs|scripts)\/[\w./*<>{},-]*/g)].map((m) =>
    m[0].replace(/[.,:;]+$/, ''),
  );
}

describe('named paths exist', () => {
  it('every src/, test/, docs/ and scripts/ path in src/ comments exists', () => {
    const missing = sourceFiles.flatMap((file) =>
      commentsOf(file).flatMap((c) =>
        namedPaths(c.text)
          .filter((p) => !exists(p))
          .map((p) => `${file}:${c.line}: ${p}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('every such path in README.md and docs/*.md exists', () => {
    const pages = ['README.md', ...walk('docs').filter((f) => f.endsWith('.md'))];
    const missing = pages.flatMap((page) =>
      readFileSync(page, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          namedPaths(line)
            .filter((p) => !exists(p))
            .map((p) => `${page}:${i + 1}: ${p}`),
        ),
    );
    expect(missing).toEqual([]);
  });

  it('placeholders and braces match names, and a missing path is seen', () => {
    expect(exists('src/cli/render/reporters/{pretty,junit}.ts')).toBe(true);
    expect(exists('src/cli/commands/*-run.ts')).toBe(true);
    expect(exists('src/contract/')).toBe(true);
    expect(exists('src/cli/options.ts')).toBe(false);
  });
});
