/**
 * The "Use it from Python, PHP or Go" programs of docs/reference.md, run as written against
 * the built CLI (npm run build first): each is read from the page, written to a folder whose
 * node_modules/.bin/svc-cli is this checkout's bin/svc-cli.js, and run with its toolchain.
 * A missing toolchain skips its program with one line saying which (.ci/run installs them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, repoRoot } from '../helpers/run-cli.js';

const PAGE = readFileSync(path.join(repoRoot, 'docs/reference.md'), 'utf8');
const SECTION = PAGE.slice(
  PAGE.indexOf('## Use it from Python, PHP or Go'),
  PAGE.indexOf('\n## ', PAGE.indexOf('## Use it from Python, PHP or Go') + 3),
);

/** The fenced block of a language in the section. */
function snippet(lang: string): string {
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(SECTION)?.[1];
  if (block === undefined) throw new Error(`docs/reference.md: no ${lang} program in the section`);
  return block;
}

const installed = (command: string, args: string[]): boolean =>
  spawnSync(command, args, { stdio: 'ignore' }).status === 0;

const dir = mkdtempSync(path.join(tmpdir(), 'svc-snippets-'));
mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
symlinkSync(bin, path.join(dir, 'node_modules/.bin/svc-cli'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a program in `dir`; resolves with its exit code and output. */
function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// go keeps its build cache in $HOME/.cache: a folder of its own under the temp dir instead
const goCache = path.join(tmpdir(), 'svc-cli-snippets-go');
const PROGRAMS = [
  { lang: 'python', file: 'main.py', tool: 'python3', probe: ['--version'], args: ['main.py'] },
  { lang: 'php', file: 'main.php', tool: 'php', probe: ['--version'], args: ['main.php'] },
  {
    lang: 'go',
    file: 'main.go',
    tool: 'go',
    probe: ['version'],
    args: ['run', 'main.go'],
    env: {
      GOCACHE: path.join(goCache, 'cache'),
      GOPATH: path.join(goCache, 'path'),
      GOFLAGS: '',
    },
  },
];

describe('docs/reference.md: the Python, PHP and Go programs run as written', () => {
  for (const program of PROGRAMS) {
    const has = installed(program.tool, program.probe);
    const title = has
      ? `${program.lang}: starts the simulator, sends, validates, reads the schema`
      : `${program.lang}: skipped: ${program.tool} is not installed`;
    it.skipIf(!has)(
      title,
      async () => {
        writeFileSync(path.join(dir, program.file), snippet(program.lang));
        const result = await run(program.tool, program.args, program.env);
        expect(result.stderr).not.toMatch(/Traceback|Fatal|panic|Warning:/);
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('message.text required when type is "text"');
        expect(result.stdout).toMatch(/required: \W*sender\W+message/);
      },
      120_000,
    );
  }
});
