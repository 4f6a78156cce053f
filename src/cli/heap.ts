/**
 * The old generation's growth in a serving command (bounded memory). Between two
 * full collections V8 lets the old generation grow to a multiple of what was live after the
 * last one. V8 picks that factor from its allocation rate, between 1.1 and 4: a simulator
 * ingesting 15k messages/s with ~22 MB live swung between 125 and 161 MB RSS (the heap in use
 * climbed to 84 MB before each full collection), so where a soak test read its RSS decided the
 * figure. The flag fixes the factor at 2x instead (V8's own choice is then not consulted): at
 * full speed the RSS stays at 117-126 MB, with no throughput cost measured (bench/memory.js;
 * docs/RELIABILITY.md); at a human pace, where V8 picks 1.1, full collections come less often
 * (every 18 s instead of every 7-8 s at 200 conversations of 1 message/s; each stops the event
 * loop 9-26 ms beside a load, in two pauses: bench/under-load.js). V8 reads this flag each
 * time it sizes the old generation, so setting it once the process runs takes effect at the
 * next collection.
 */
import v8 from 'node:v8';
import { writeOwedCodeCaches } from './compiled.js';

/** The old generation grows to (1 + this / 100) times what was live: 2x. */
export const HEAP_GROWING_PERCENT = 100;

const FLAG = '--heap-growing-percent';
let applied: 'set' | 'given' | undefined;

/**
 * Fixes the heap's growth factor for a long-running command, once per process; a
 * `--heap-growing-percent` given to node itself is kept.
 * @example boundHeapGrowth(); // before serving
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): 'set' | 'given' {
  if (applied) return applied;
  if (execArgv.some((arg) => arg.startsWith(FLAG) || arg.startsWith('--heap_growing_percent')))
    applied = 'given';
  else {
    // V8 rejects a code cache made under other flags than its own: what is owed goes first
    writeOwedCodeCaches();
    v8.setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
    applied = 'set';
  }
  return applied;
}
