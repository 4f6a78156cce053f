/** The option table of explain (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

/**
 * `explain` takes its topic as arguments; --json is global. It reads no config file: it is
 * where a config file's own error points (`more: svc-cli explain SVC_E_CONFIG`), so a broken
 * one must not stop it.
 */
export const explainOptions = defineOptions(
  'explain',
  [] as const satisfies readonly OptionSpec[],
  { readsConfig: false },
);
