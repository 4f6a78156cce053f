import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/main.js';
import { HONOURED_GLOBALS } from '../../../src/cli/options/honoured.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const cwd = process.cwd();

async function helpOf(argv: string[]): Promise<string> {
  const t = createTestContext({ cwd });
  expect(await runInProcess(t, [...argv, '--help'])).toBe(0);
  return t.stdout();
}

/** The flags listed under "Global Options:", in order. */
function globalSection(help: string): string[] {
  const section = /\nGlobal Options:\n([\s\S]*?)(\n\n|$)/.exec(help)?.[1] ?? '';
  return [...section.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
}

describe("each command's --help lists the global options it reads", () => {
  it('send-text: the output, config, timer and trust flags', async () => {
    expect(globalSection(await helpOf(['send-text']))).toEqual([
      '--json',
      '--no-color',
      '--time-scale',
      '--config',
      '--ca',
      '--insecure',
    ]);
  });

  it('validate: no timers, no https calls', async () => {
    const globals = globalSection(await helpOf(['validate']));
    expect(globals).toEqual(['--json', '--no-color', '--config']);
  });

  it('record to-fixture, a subcommand, lists them too', async () => {
    expect(globalSection(await helpOf(['record', 'to-fixture']))).toContain('--json');
  });

  it('conform keeps its per-suite option filter', async () => {
    const help = await helpOf(['conform', 'platform']);
    expect(globalSection(help)).toContain('--insecure');
    expect(help).not.toContain('--integrator-url');
  });

  it('every command is in the table (a new command must say what it reads)', () => {
    const program = createProgram(createTestContext({ cwd }).ctx);
    const names = program.commands.flatMap((c) => [
      c.name(),
      ...c.commands.map((s) => `${c.name()} ${s.name()}`),
    ]);
    expect(names.filter((n) => !(n in HONOURED_GLOBALS))).toEqual([]);
  });
});
