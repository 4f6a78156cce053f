import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/contract/registry.js';
import { fieldRows } from '../../../src/reference/fields.js';
import { contractMarkdown, documentedKinds, sectionIds } from '../../../src/reference/render.js';

const root = path.resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory()
      ? sourceFiles(file)
      : /\.(ts|html|css)$/.test(name)
        ? [file]
        : [];
  });
}

/** Every section a "spec N.N" (or "spec 2.6, 6.2") in src/ cites, with one file citing it. */
function citations(): Map<string, string> {
  const cited = new Map<string, string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(
      /\bspec ((?:\d+(?:\.\d+)?)(?:(?:, | and |\/)\d+(?:\.\d+)?)*)/g,
    ))
      for (const id of match[1]!.split(/, | and |\//))
        if (!cited.has(id)) cited.set(id, path.relative(root, file));
  }
  return cited;
}

describe('docs/CONTRACT.md', () => {
  it('is current (npm run build writes it from the code)', () => {
    const committed = readFileSync(path.join(root, 'docs/CONTRACT.md'), 'utf8');
    expect(committed === contractMarkdown(), 'docs/CONTRACT.md is stale: run npm run build').toBe(
      true,
    );
  });

  it('has a section for every "spec N.N" the code cites', () => {
    const ids = new Set(sectionIds());
    const cited = citations();
    expect(cited.size).toBeGreaterThan(20);
    const missing = [...cited]
      .filter(([id]) => !ids.has(id))
      .map(([id, file]) => `spec ${id} (${file})`);
    expect(missing).toEqual([]);
    const markdown = readFileSync(path.join(root, 'docs/CONTRACT.md'), 'utf8');
    for (const id of cited.keys())
      expect(markdown).toMatch(new RegExp(`^#{2,4} ${id.replace('.', '\\.')}[. ]`, 'm'));
  });

  it("says only a customer's text is cut (spec 2.1, 8), not an agent's (2.2 sets no limit)", () => {
    const text = (kind: string) =>
      fieldRows(kind).find((row) => row.path === 'message.text')?.description;
    expect(text('channel.customer.text')).toContain('over 1000 characters it is cut');
    expect(text('channel.agent.text')).toBe('message text');
  });

  it('has a field table for every kind, and a meaning for every field', () => {
    expect(documentedKinds()).toEqual([...KINDS.keys()]);
    const undescribed = [...KINDS.keys()].flatMap((kind) =>
      fieldRows(kind)
        .filter((row) => row.path !== '(body)' && row.description === undefined)
        .map((row) => `${kind} ${row.path}`),
    );
    expect(undescribed).toEqual([]);
  });
});

describe('the README and docs/', () => {
  const pages = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it('link the contract reference and never a path outside the repository', () => {
    for (const page of pages) {
      const text = readFileSync(path.join(root, page), 'utf8');
      expect(text, page).not.toMatch(/shared\/spec|interfaces\.md/);
      for (const [, target] of text.matchAll(/\]\((?!https?:|#|mailto:)([^)\s#]+)/g)) {
        const resolved = path.resolve(path.dirname(path.join(root, page)), target!);
        expect(resolved.startsWith(`${root}${path.sep}`), `${page} -> ${target}`).toBe(true);
      }
    }
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('docs/CONTRACT.md');
  });
});
