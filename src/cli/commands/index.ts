import type { Command } from 'commander';

// program.ts takes commander from here, one import for the program and the commands (the
// start-up bundle inlines it, scripts/bundle-commands.mjs).
export { Command, CommanderError, Help } from 'commander';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { GLOBAL_OPTIONS } from '../options/table.js';
import { registerSchema } from './schema.js';
import { registerExplain } from './explain.js';
import { registerValidate } from './validate.js';
import { registerPlatform } from './platform.js';
import { registerBotSim } from './bot-sim.js';
import { registerReplay } from './replay.js';
import { registerSendText } from './send-text.js';
import { registerSendMedia } from './send-media.js';
import { registerSendLocation } from './send-location.js';
import { registerTyping } from './typing.js';
import { registerStatus } from './status.js';
import { registerListen } from './listen.js';
import { registerHookFire } from './hook-fire.js';
import { registerHookTarget } from './hook-target.js';
import { registerInit } from './init.js';
import { registerConfig } from './config.js';
import { registerChat } from './chat.js';
import { registerCompletion } from './completion.js';
import { registerDoctor } from './doctor.js';
import { registerConform } from './conform.js';
import { registerRecord } from './record.js';
import { registerWidget } from './widget.js';
import { registerLoad } from './load.js';
import { registerProxy } from './proxy.js';
import { registerTrace } from './trace.js';
import { registerReport } from './report.js';
import { registerCoverage } from './coverage.js';
import { registerMutate } from './mutate.js';

/**
 * The global options, then every command in the order `--help` lists them. Command modules
 * are thin and import their core lazily inside the action.
 */
export function registerCommands(program: Command, ctx: CliContext): void {
  addOptions(program, GLOBAL_OPTIONS);
  registerReplay(program, ctx);
  registerConform(program, ctx);
  registerRecord(program, ctx);
  registerTrace(program, ctx);
  registerReport(program, ctx);
  registerCoverage(program, ctx);
  registerMutate(program, ctx);
  registerLoad(program, ctx);
  registerPlatform(program, ctx);
  registerProxy(program, ctx);
  registerBotSim(program, ctx);
  registerValidate(program, ctx);
  registerSchema(program, ctx);
  registerExplain(program, ctx);
  registerSendText(program, ctx);
  registerSendMedia(program, ctx);
  registerSendLocation(program, ctx);
  registerTyping(program, ctx);
  registerStatus(program, ctx);
  registerListen(program, ctx);
  registerHookFire(program, ctx);
  registerHookTarget(program, ctx);
  registerWidget(program, ctx);
  registerChat(program, ctx);
  registerInit(program, ctx);
  registerConfig(program, ctx);
  registerDoctor(program, ctx);
  registerCompletion(program, ctx);
}
