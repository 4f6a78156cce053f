/**
 * Every command's option table: the resolver tells another command's key from a typo with it,
 * `svc-cli config` lists it, the config file's JSON Schema is built from it, and the
 * table-driven test walks it.
 */
import { conformOptions } from '../commands/conform-options.js';
import { loadOptions } from '../commands/load-options.js';
import { chatOptions } from '../commands/chat-options.js';
import { hookFireOptions } from '../commands/hook-fire-options.js';
import { widgetOptions } from '../commands/widget-options.js';
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
import { botSimOptions } from '../commands/bot-sim-options.js';
import { hookTargetOptions } from '../commands/hook-target-options.js';
import { listenOptions } from '../commands/listen-options.js';
import { coverageOptions } from '../commands/coverage-options.js';
import { doctorOptions } from '../commands/doctor-options.js';
import { mutateOptions } from '../commands/mutate-options.js';
import { explainOptions } from '../commands/explain-options.js';
import { initOptions } from '../commands/init-options.js';
import { schemaOptions } from '../commands/schema-options.js';
import {
  recordDiffOptions,
  recordProfileOptions,
  toFixtureOptions,
} from '../commands/record-options.js';
import { validateOptions } from '../commands/validate-options.js';
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
