import type { Command } from 'commander';

// program.ts takes commander from here, one import for the program and the commands (the
// start-up bundle inlines it, scripts/bundle-commands.mjs).
export { Command, CommanderError, Help } from 'commander';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { GLOBAL_OPTIONS } from '../options/table.js';
import { addCommand, type CommandSpec } from './spec.js';
import { replayCommand } from './replay.js';
import { conformCommand } from './conform.js';
import { recordCommand } from './record.js';
import { traceCommand } from './trace.js';
import { reportCommand } from './report.js';
import { coverageCommand } from './coverage.js';
import { mutateCommand } from './mutate.js';
import { loadCommand } from './load.js';
import { platformCommand } from './platform.js';
import { proxyCommand } from './proxy.js';
import { botSimCommand } from './bot-sim.js';
import { validateCommand } from './validate.js';
import { schemaCommand } from './schema.js';
import { explainCommand } from './explain.js';
import { sendTextCommand } from './send-text.js';
import { sendMediaCommand } from './send-media.js';
import { sendLocationCommand } from './send-location.js';
import { typingCommand } from './typing.js';
import { statusCommand } from './status.js';
import { listenCommand } from './listen.js';
import { hookFireCommand } from './hook-fire.js';
import { hookTargetCommand } from './hook-target.js';
import { widgetCommand } from './widget.js';
import { chatCommand } from './chat.js';
import { initCommand } from './init.js';
import { configCommand } from './config.js';
import { doctorCommand } from './doctor.js';
import { completionCommand } from './completion.js';

/**
 * Every command, in the order `--help` lists them: data only (name, arguments, option table,
 * help, a lazy run), so registering them loads no command's body.
 */
export const COMMANDS: readonly CommandSpec[] = [
  replayCommand,
  conformCommand,
  recordCommand,
  traceCommand,
  reportCommand,
  coverageCommand,
  mutateCommand,
  loadCommand,
  platformCommand,
  proxyCommand,
  botSimCommand,
  validateCommand,
  schemaCommand,
  explainCommand,
  sendTextCommand,
  sendMediaCommand,
  sendLocationCommand,
  typingCommand,
  statusCommand,
  listenCommand,
  hookFireCommand,
  hookTargetCommand,
  widgetCommand,
  chatCommand,
  initCommand,
  configCommand,
  doctorCommand,
  completionCommand,
];

/** The global options, then every command of `COMMANDS`. */
export function registerCommands(program: Command, ctx: CliContext): void {
  addOptions(program, GLOBAL_OPTIONS);
  for (const spec of COMMANDS) addCommand(program, spec, ctx);
}
