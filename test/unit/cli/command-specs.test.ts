import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { ALL_TABLES } from '../../../src/cli/options/all.js';
import type { CommandSpec } from '../../../src/cli/commands/spec.js';
import { createProgram } from '../../../src/cli/main.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const commandsDir = join(process.cwd(), 'src/cli/commands');

/** Every spec with its place: `record diff` for a subcommand. */
function walk(specs: readonly CommandSpec[], parents: string[] = []): [string, CommandSpec][] {
  return specs.flatMap((spec) => {
    const path = [...parents, spec.name];
    return [[path.join(' '), spec] as [string, CommandSpec], ...walk(spec.subcommands ?? [], path)];
  });
}

/** The tree of names commander holds: what `--help` and completion see. */
function names(command: Command): unknown[] {
  return command.commands.map((sub) =>
    sub.commands.length > 0 ? [sub.name(), names(sub)] : sub.name(),
  );
}
function specNames(specs: readonly CommandSpec[]): unknown[] {
  return specs.map((spec) =>
    spec.subcommands ? [spec.name, specNames(spec.subcommands)] : spec.name,
  );
}

describe('commands are data: COMMANDS is the one list', () => {
  it('the program holds exactly the commands of COMMANDS, in their order', () => {
    const program = createProgram(createTestContext({ cwd: process.cwd() }).ctx);
    expect(names(program)).toEqual(specNames(COMMANDS));
  });

  it('no command module builds a commander command itself: spec.ts does', () => {
    const builders = readdirSync(commandsDir)
      .filter((file) => file.endsWith('.ts') && file !== 'spec.ts')
      .filter((file) =>
        /\.command\(|\.action\(|export function register(?!Commands\b)/.test(
          readFileSync(join(commandsDir, file), 'utf8'),
        ),
      );
    expect(builders).toEqual([]);
  });

  it("the commands' option tables are ALL_TABLES (config, the config file's schema)", () => {
    const tables = walk(COMMANDS).flatMap(([, spec]) => (spec.options ? [spec.options] : []));
    expect(new Set(tables)).toEqual(new Set(ALL_TABLES));
  });

  it('names are unique among siblings', () => {
    const places = walk(COMMANDS).map(([place]) => place);
    expect(new Set(places).size).toBe(places.length);
  });

  it('every command but a group of subcommands has a run; a group has none', () => {
    for (const [place, spec] of walk(COMMANDS)) {
      expect({ place, runs: spec.run !== undefined }).toEqual({
        place,
        runs: spec.subcommands === undefined,
      });
    }
  });
});

describe("every spec's run path is a *-run.ts module, and its loader loads that module", () => {
  const runs = walk(COMMANDS).flatMap(([place, spec]) =>
    spec.run ? [[place, spec.run] as const] : [],
  );

  it.each(runs)('%s', async (_place, run) => {
    expect(run.path).toMatch(/^[a-z][a-z-]*-run$/);
    expect(existsSync(join(commandsDir, `${run.path}.ts`))).toBe(true);
    // the literal import() beside the name is that module, not another one
    const loaded = await run.load();
    const own: unknown = await import(/* @vite-ignore */ join(commandsDir, `${run.path}.ts`));
    expect(loaded).toBe(own);
  });

  it("every *-run.ts module is some command's run path", () => {
    const files = readdirSync(commandsDir)
      .filter((file) => file.endsWith('-run.ts'))
      .map((file) => file.slice(0, -3))
      .sort();
    expect([...new Set(runs.map(([, run]) => run.path))].sort()).toEqual(files);
  });
});

describe('the examples of every --help', () => {
  /**
   * Each command's examples as its `--help` prints them, a continued line (`\\`) joined to its
   * first: a computed help text (`conform <suite> --help`) and a fixture named on a
   * continuation line are checked too.
   */
  const helpArgs = [
    ...walk(COMMANDS).map(([path]) => path.split(' ')),
    ...['integrator', 'hooks', 'platform', 'bot'].map((suite) => ['conform', suite]),
  ];
  let examples: (readonly [string, string])[] = [];
  beforeAll(async () => {
    for (const args of helpArgs) {
      const t = createTestContext({ cwd: process.cwd() });
      await runInProcess(t, [...args, '--help']);
      const joined = t.stdout().replace(/\\\n\s+/g, ' ');
      examples.push(
        ...joined
          .split('\n')
          .filter((line) => line.trimStart().startsWith('$ svc-cli'))
          .map((line) => [args.join(' '), line.trim()] as const),
      );
    }
    examples = [...new Map(examples.map((e) => [e.join('\0'), e])).values()];
  });

  it('are read from every command', () => {
    expect(new Set(examples.map(([path]) => path)).size).toBeGreaterThan(30);
    // a continued line is one example
    expect(examples.some(([, line]) => line.includes('\\'))).toBe(false);
  });

  it('name only fixtures that are in the repository', () => {
    const missing = examples.flatMap(([path, line]) =>
      [...line.matchAll(/\bfixtures\/[\w./-]+\.json\b/g)]
        .map((m) => m[0])
        .filter((file) => !existsSync(join(process.cwd(), file)))
        .map((file) => `${path}: ${file}`),
    );
    expect(missing).toEqual([]);
  });

  it('never write into fixtures/conversations/, the bundled set npm start replays (docs/replay.md)', () => {
    const into = examples.filter(([, line]) =>
      /(>|--out|-o)\s+fixtures\/conversations\//.test(line),
    );
    expect(into).toEqual([]);
  });
});

describe('a group typed without its subcommand', () => {
  it('prints its help on stderr and is a usage error (exit 2), as an unknown subcommand is', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runInProcess(t, ['record'])).toBe(2);
    expect(t.stderr()).toContain('Usage: svc-cli record [options] [command]');
    expect(t.stdout()).toBe('');
    const json = createTestContext({ cwd: process.cwd() });
    expect(await runInProcess(json, ['--json', 'record'])).toBe(2);
    expect(JSON.parse(json.stdout().trim())).toMatchObject({
      type: 'error',
      code: 'SVC_E_USAGE',
      message: 'missing command: one of to-fixture, diff, profile',
      hint: 'svc-cli record --help lists its commands.',
    });
  });
});
