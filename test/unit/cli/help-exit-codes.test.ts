import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { createProgram } from '../../../src/cli/program.js';
import {
  COMMAND_EXIT_CODES,
  COMMON_EXIT_CODES,
  exitCodesHelp,
} from '../../../src/cli/exit-codes-help.js';
import { EXIT_CODES } from '../../../src/errors.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

/** Every command that runs (not a group of subcommands), by its path as typed. */
function commandPaths(): string[] {
  const program = createProgram(createTestContext({ cwd: process.cwd() }).ctx);
  const paths: string[] = [];
  const walk = (parent: Command, prefix: string[]): void => {
    for (const command of parent.commands) {
      const path = [...prefix, command.name()];
      if (command.commands.length === 0) paths.push(path.join(' '));
      walk(command, path);
    }
  };
  walk(program, []);
  return paths;
}

const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('the exit codes in --help come from one table per command', () => {
  const paths = commandPaths();

  it('every command has a table, and the table names no command that is not there', () => {
    expect(paths.filter((path) => COMMAND_EXIT_CODES[path] === undefined)).toEqual([]);
    expect(Object.keys(COMMAND_EXIT_CODES).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('every code in the tables is one of EXIT_CODES', () => {
    const known = new Set<number>(Object.values(EXIT_CODES));
    for (const row of [...Object.values(COMMAND_EXIT_CODES).flat(), ...COMMON_EXIT_CODES])
      for (const code of row.codes) expect(known).toContain(code);
  });

  it.each(paths)('%s --help lists its codes from the table, once', async (path) => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runInProcess(t, [...path.split(' '), '--help']);
    expect(code).toBe(0);
    const help = flat(t.stdout());
    expect(help.match(/Exit codes:/g)).toHaveLength(1);
    expect(help).toContain(flat(exitCodesHelp(path)!));
    for (const row of COMMAND_EXIT_CODES[path]!)
      expect(help).toContain(flat(`${row.codes.join('/')} ${row.meaning}`));
  });
});
