import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import type { CommandSpec } from '../../../src/cli/commands/spec.js';
import { runCli } from '../../../src/cli/main.js';
import { createTestContext } from '../../helpers/cli-context.js';

describe('a command typed as two words gets the command it names', () => {
  it.each([
    [['hook', 'fire', 'chat_started'], 'hook-fire'],
    [['hooks', 'fire'], 'hook-fire'],
    [['send', 'text', 'hi'], 'send-text'],
    [['bot', 'sim'], 'bot-sim'],
    [['hook'], 'hook-fire or hook-target'],
  ])('%j: (Did you mean %s?), exit 2', async (argv, meant) => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(argv, t.ctx)).toBe(2);
    expect(t.stderr()).toContain(`unknown command '${argv[0]}'\n(Did you mean ${meant}?)`);
  });

  it('a word no command starts gets no guess', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(['zzz', 'fire'], t.ctx)).toBe(2);
    expect(t.stderr()).not.toContain('Did you mean');
  });
});

describe('a mistyped argument choice gets a suggestion, as commands and flags do', () => {
  it('conform integratr: (Did you mean integrator?), exit 2', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runCli(['conform', 'integratr'], t.ctx);
    expect(code).toBe(2);
    expect(t.stderr()).toMatch(/'integratr' is invalid[\s\S]*\(Did you mean integrator\?\)/);
  });

  it('send-media pic: the type people mean by the word (photo), not the nearest spelling (voice)', async () => {
    for (const [typed, meant] of [
      ['pic', 'photo'],
      ['gif', 'photo'],
      ['pdf', 'document'],
      ['mp3', 'audio'],
      ['vidoe', 'video'],
    ]) {
      const t = createTestContext({ cwd: process.cwd() });
      expect(await runCli(['send-media', typed!], t.ctx)).toBe(2);
      expect(t.stderr()).toContain(`(Did you mean ${meant}?)`);
    }
  });

  it('proxy chat: the interface people mean by the word (channel), not the nearest (bot)', async () => {
    for (const [typed, meant] of [
      ['chat', 'channel'],
      ['webhooks', 'hooks'],
    ]) {
      const t = createTestContext({ cwd: process.cwd() });
      expect(await runCli(['proxy', typed!], t.ctx)).toBe(2);
      expect(t.stderr()).toContain(`(Did you mean ${meant}?)`);
    }
  });

  it('--json: the suggestion is in the error line', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runCli(['--json', 'conform', 'hoks'], t.ctx);
    expect(code).toBe(2);
    expect(t.stdout()).toContain('(Did you mean hooks?)');
  });
});

/** Every argument with choices, with the command words before it and a value for each argument ahead of it. */
function argumentsWithChoices(
  specs: readonly CommandSpec[],
  path: readonly string[] = [],
): { command: string[]; before: string[]; choices: readonly string[] }[] {
  return specs.flatMap((spec) => {
    const command = [...path, spec.name];
    const args = spec.arguments ?? [];
    const own = args.flatMap((argument, index) =>
      argument.choices
        ? [
            {
              command,
              before: args.slice(0, index).map((a) => a.choices?.[0] ?? 'x'),
              choices: argument.choices,
            },
          ]
        : [],
    );
    return [...own, ...argumentsWithChoices(spec.subcommands ?? [], command)];
  });
}

/** A choice typed short: half of it, at least enough to tell it from the others. */
function typedShort(choice: string, choices: readonly string[]): string | undefined {
  for (let n = Math.max(1, Math.ceil(choice.length / 2)); n < choice.length; n++) {
    const prefix = choice.slice(0, n);
    if (choices.filter((c) => c.startsWith(prefix)).length === 1) return prefix;
  }
  return undefined;
}

describe('a choice typed short is suggested as the choice it begins', () => {
  it('conform plat: (Did you mean platform?), not bot', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(['conform', 'plat'], t.ctx)).toBe(2);
    expect(t.stderr()).toContain('(Did you mean platform?)');
  });

  const cases = argumentsWithChoices(COMMANDS).flatMap(({ command, before, choices }) =>
    choices.flatMap((choice) => {
      const typed = typedShort(choice, choices);
      return typed === undefined ? [] : [{ argv: [...command, ...before, typed], choice }];
    }),
  );

  it('covers every command argument with choices', () => {
    const commands = new Set(cases.map((c) => c.argv[0]));
    expect([...commands].sort()).toEqual(
      expect.arrayContaining(['completion', 'conform', 'load', 'proxy', 'send-media', 'typing']),
    );
  });

  it.each(cases)('$argv -> $choice', async ({ argv, choice }) => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(argv, t.ctx)).toBe(2);
    expect(t.stderr()).toContain(`(Did you mean ${choice}?)`);
  });
});

describe("a flag's value outside its choices gets a suggestion too", () => {
  it.each([
    ['jun', 'junit'],
    ['jnuit', 'junit'],
    ['pre', 'pretty'],
  ])('conform bot --reporter %s: (Did you mean %s?), exit 2', async (typed, choice) => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(['conform', 'bot', '--reporter', typed], t.ctx)).toBe(2);
    expect(t.stderr()).toContain(`argument '${typed}' is invalid. Allowed choices are`);
    expect(t.stderr()).toContain(`(Did you mean ${choice}?)`);
  });

  it('widget --agents ofline: (Did you mean offline?), not online, as many edits away', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(['widget', '--agents', 'ofline'], t.ctx)).toBe(2);
    expect(t.stderr()).toContain('(Did you mean offline?)');
  });
});
