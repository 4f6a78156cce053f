/**
 * Every command's option table: the resolver tells another command's key from a typo with it,
 * `svc-cli config` lists it, the config file's JSON Schema is built from it, and the
 * table-driven test walks it.
 */
import { conformOptions } from '../commands/conform-options.js';
import { loadOptions } from '../commands/load-options.js';
import { chatOptions, hookFireOptions, widgetOptions } from '../commands/misc-options.js';
import { platformOptions } from '../commands/platform-options.js';
import { proxyOptions } from '../commands/proxy-options.js';
import { replayOptions } from '../commands/replay-options.js';
import { traceOptions } from '../commands/trace-options.js';
import { reportOptions } from '../commands/report-options.js';
import {
  sendLocationOptions,
  sendMediaOptions,
  sendTextOptions,
  statusOptions,
  typingOptions,
} from '../commands/send-options.js';
import { botSimOptions, hookTargetOptions, listenOptions } from '../commands/serving-tables.js';
import {
  coverageOptions,
  doctorOptions,
  mutateOptions,
  explainOptions,
  initOptions,
  schemaOptions,
  recordDiffOptions,
  recordProfileOptions,
  toFixtureOptions,
  validateOptions,
} from '../commands/tool-options.js';
import type { OptionTable } from './table.js';

export const ALL_TABLES: readonly OptionTable[] = [
  platformOptions,
  listenOptions,
  hookTargetOptions,
  botSimOptions,
  sendTextOptions,
  sendMediaOptions,
  sendLocationOptions,
  typingOptions,
  statusOptions,
  chatOptions,
  hookFireOptions,
  widgetOptions,
  conformOptions,
  proxyOptions,
  replayOptions,
  loadOptions,
  initOptions,
  doctorOptions,
  schemaOptions,
  explainOptions,
  validateOptions,
  toFixtureOptions,
  traceOptions,
  reportOptions,
  recordDiffOptions,
  recordProfileOptions,
  coverageOptions,
  mutateOptions,
];
