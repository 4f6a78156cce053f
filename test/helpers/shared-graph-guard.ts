/**
 * Set-up of the tiers whose files share one worker and module graph (unit, integration;
 * vitest.config.ts): a file must leave the process as it found it, or the next file in the
 * worker runs in what it left. This fails the file that leaves `process.env` changed, fake
 * timers installed, or another global HTTP agent (undici's global dispatcher, which `--ca` and
 * `--insecure` replace), so a leak is found where it is made, not as a puzzle in another file.
 */
import { afterAll, beforeAll, vi } from 'vitest';

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const globals = globalThis as unknown as Record<symbol, unknown>;

let env: Record<string, string | undefined> = {};
let dispatcher: unknown;

beforeAll(() => {
  env = { ...process.env };
  dispatcher = globals[DISPATCHER];
});

afterAll(() => {
  const left: string[] = [];
  const names = new Set([...Object.keys(env), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => env[name] !== process.env[name]).sort();
  if (changed.length > 0) left.push(`process.env changed: ${changed.join(', ')}`);
  if (vi.isFakeTimers()) left.push('fake timers still installed (vi.useRealTimers())');
  // a file's first HTTP request may install undici's default agent: only a replaced one counts
  if (dispatcher !== undefined && globals[DISPATCHER] !== dispatcher)
    left.push("undici's global dispatcher replaced (--ca, --insecure, setGlobalDispatcher)");
  if (left.length > 0)
    throw new Error(
      `this file shares its worker with the next one and left the process changed: ${left.join('; ')}. Restore it in afterEach/afterAll, or list the file in ISOLATED_UNIT (docs/TESTING.md).`,
    );
});
