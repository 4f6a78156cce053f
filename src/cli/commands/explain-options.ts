/** The option table of explain (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

/** `explain` takes its topic as arguments; --json is global. */
export const explainOptions = defineOptions('explain', [] as const satisfies readonly OptionSpec[]);
