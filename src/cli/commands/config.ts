import { defineCommand } from './spec.js';

/** `config [command]`: the resolved options and where each came from (file, env, flag, default). */
export const configCommand = defineCommand({
  name: 'config',
  description: 'print the resolved options and where each came from: file, env, flag or default',
  arguments: [
    {
      name: 'command',
      optional: true,
      completesCommands: true,
      description: "show one command's options (its commands.<name> section applies)",
    },
    {
      name: 'flags',
      optional: true,
      variadic: true,
      description: "that command's flags, to see how they combine",
    },
  ],
  allowUnknownOption: true,
  helpAfter: `
Precedence: ${'svc.config.json'} < SVC_* environment < flags. --config <file> reads another file.
Secrets (the channel URL's random string) are redacted unless --show-secrets.
Examples:
  $ svc-cli config
  $ svc-cli config listen --port 9000
  $ SVC_PORT=9000 svc-cli --json config listen`,
  run: {
    path: 'config-run',
    sources: () => import('./config-run.js'),
    call: (m, ctx, { args, flags }) =>
      m.runConfig(ctx, {
        command: args.command,
        rest: args.flags,
        given: flags,
      }),
  },
});
