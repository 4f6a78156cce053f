/**
 * The packed tarball holds the documentation its README links: every relative link of every
 * packed Markdown page resolves to a packed file (`npm pack --dry-run`, no build, no network).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('the package', () => {
  it('packs CONTRACT.md, FIDELITY.md and every page a packed page links', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const [info] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
    const packed = new Set(info!.files.map((f) => f.path));
    expect(packed).toContain('docs/CONTRACT.md');
    expect(packed).toContain('docs/FIDELITY.md');
    const broken: string[] = [];
    for (const page of [...packed].filter((p) => p.endsWith('.md'))) {
      const text = readFileSync(path.join(root, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\((?!https?:|#|mailto:)([^)\s#]+)/g)) {
        const file = path.posix.normalize(path.posix.join(path.posix.dirname(page), target!));
        const found = target!.endsWith('/')
          ? [...packed].some((p) => p.startsWith(file))
          : packed.has(file);
        if (!found) broken.push(`${page} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  }, 60_000);
});
