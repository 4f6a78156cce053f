import { ERRORS } from '../../error-codes.js';
import { defineCommand } from './spec.js';
import { explainOptions } from './explain-options.js';

/** `svc-cli explain <what...>`: the part of docs/CONTRACT.md a message points at. */
export const explainCommand = defineCommand({
  name: 'explain',
  description:
    'print the part of the contract a message points at: a section, kind, field, rule or error code',
  arguments: [
    {
      name: 'what',
      optional: true,
      variadic: true,
      description: 'a section, kind, kind and field, rule code or error code',
      // completion offers the error codes (the catalogue is on the start-up path already),
      // not file names
      completes: Object.keys(ERRORS),
    },
  ],
  options: explainOptions,
  helpAfter: `
Every "spec N.N" in svc-cli's messages is a section of docs/CONTRACT.md (in the package
too); explain prints it in the terminal. Error lines and contract issues print the
explain command that helps. Without an argument it lists what it explains, with an example
of each. An unknown name suggests the closest ones, a section number the nearest sections,
a plain word (typing, timeout) the sections that speak of it (exit 2). Tables are laid out for the terminal's width; --json keeps the Markdown.

Examples:
  $ svc-cli explain                                      # what it explains
  $ svc-cli explain 2.5                                  # a section
  $ svc-cli explain bot.event.BOT_MESSAGE                # a payload kind's field table
  $ svc-cli explain hook.chat_finished chat.messages     # one field (and what is under it)
  $ svc-cli explain type_drift                           # a rule code of validate and conform
  $ svc-cli explain SVC_E_UNTRUSTED_CERT                 # an error code, with what to do
  $ svc-cli explain hook-after-finish                    # a cross-interface invariant
  $ svc-cli explain duplicate-agent-message              # a simulator mutant (svc-cli mutate)
  $ svc-cli --json explain 8`,
  run: {
    path: 'explain-run',
    sources: () => import('./explain-run.js'),
    call: (m, ctx, { args, flags }) => m.runExplain(ctx, args.what, flags),
  },
});
