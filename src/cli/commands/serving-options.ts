import type { Command } from 'commander';

/**
 * The flags every serving role shares (`listen`, `hook-target`, `bot-sim`): the fault
 * module's flags and `--record` / `--body-limit`. Light on purpose: registration modules
 * load it for `--help`.
 */
export function addFaultOptions(
  cmd: Command,
  options: { failFirst: string; planFile: boolean },
): Command {
  cmd
    .option('--fail-first <n>', options.failFirst)
    .option('--delay <ms>', 'wait this long (protocol ms) before every reply')
    .option(
      '--fault <spec>',
      'none | status:<code> | reset | hang | bad-json | error:<code>:<message> | slow-body[:<ms>]',
    )
    .option('--fault-rate <p>', 'apply --fault with probability p (0..1)')
    .option('--seed <n>', 'seed for --fault-rate: the same seed gives the same faults');
  if (options.planFile) {
    cmd.option('--fault-plan <file>', 'a fault plan file ({"version":1,...}); flags override it');
  }
  return cmd;
}

/** `--quiet` for serving commands: no line per request (the journal still records them). */
export function addQuietOption(cmd: Command): Command {
  return cmd.option(
    '-q, --quiet',
    'print only the listening line, warnings and errors: no line per request (--record still records every exchange)',
  );
}

export function addRecordOptions(cmd: Command): Command {
  return cmd
    .option(
      '--record <file>',
      'record every exchange: NDJSON, or HAR 1.2 when the name ends in .har',
    )
    .option('--body-limit <bytes>', 'largest request body; 413 beyond (default 1048576)');
}
