import type { Command } from 'commander';
import { defineCommand } from './spec.js';

/** `completion <shell>`: a completion script generated from this program. */
export const completionCommand = defineCommand({
  name: 'completion',
  description: 'print a shell completion script (commands, flags, choices)',
  arguments: [
    { name: 'shell', description: 'bash | zsh | fish', choices: ['bash', 'zsh', 'fish'] },
  ],
  helpAfter: `
Examples:
  $ svc-cli completion bash > ~/.local/share/bash-completion/completions/svc-cli
  $ source <(svc-cli completion bash)           # or add this line to ~/.bashrc
  $ svc-cli completion zsh > ~/.svc-cli.zsh     # and "source ~/.svc-cli.zsh" in ~/.zshrc
  $ svc-cli completion fish > ~/.config/fish/completions/svc-cli.fish`,
  // its own module, not the run paths' bundle: a completion script loads little
  run: {
    path: 'completion-run',
    load: () => import('./completion-run.js'),
    call: (m, ctx, { args, command }) =>
      m.runCompletion(ctx, command.parent as Command, args.shell),
  },
});
