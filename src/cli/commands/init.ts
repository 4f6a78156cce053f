import { defineCommand } from './spec.js';
import { initOptions } from './init-options.js';

/** `init`: asks which part you play and your URLs, writes svc.config.json. */
export const initCommand = defineCommand({
  name: 'init',
  description: 'write svc.config.json: the part you play, your endpoint URLs, the channel URL',
  options: initOptions,
  helpAfter: `
Writes ./svc.config.json (or the file of the global --config <file>, given before init) with
"$schema" pointing to the JSON Schema shipped in the package, so editors complete and check
it; the single binary has no schema file on disk, so its file has no "$schema". Without a TTY,
or with --yes, nothing is asked: the flags and defaults are used and the command says so.
Asked, each role answers only what its commands read: a hook receiver its hook URL, an
integrator its endpoint, the channel URL and a customer id; --role answers the first question.

Examples:
  $ svc-cli init
  $ svc-cli init --yes --role integrator --integrator-url http://127.0.0.1:9000
  $ svc-cli init --role hook-receiver          # asks the hook URL alone
  $ svc-cli init --yes --role platform-qa --channel-url https://svc.example/r4nd0m/ch-1 --force`,
  run: {
    path: 'init-run',
    sources: () => import('./init-run.js'),
    call: (m, ctx, { flags }) => m.runInit(ctx, flags),
  },
});
