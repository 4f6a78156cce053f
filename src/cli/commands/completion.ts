import { Argument, type Command } from 'commander';
import { action } from '../action.js';
import type { CliContext } from '../context.js';

/** `completion <shell>`: a completion script generated from this program. */
export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('print a shell completion script (commands, flags, choices)')
    .addArgument(new Argument('<shell>', 'bash | zsh | fish').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      `
Examples:
  $ svc-cli completion bash > ~/.local/share/bash-completion/completions/svc-cli
  $ source <(svc-cli completion bash)           # or add this line to ~/.bashrc
  $ svc-cli completion zsh > "\${fpath[1]}/_svc-cli"
  $ svc-cli completion fish > ~/.config/fish/completions/svc-cli.fish`,
    )
    .action(
      action(ctx, async (shell: 'bash' | 'zsh' | 'fish') => {
        const { generateCompletion } = await import('../completion.js');
        ctx.stdout.write(generateCompletion(program, shell));
        return 0;
      }),
    );
}
