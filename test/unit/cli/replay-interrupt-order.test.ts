/**
 * A replay stopped by a signal while conversations run at once: one that finished behind one
 * still running (input order holds its result back) is reported as it ended, not as
 * interrupted, in the terminal, the JUnit file and the summary.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ReplayOptions } from '../../../src/conversation/runner.js';
import type * as ReplayAll from '../../../src/conversation/replay-all.js';
import type { ReplayAllOptions } from '../../../src/conversation/replay-all.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

/** Resolves once the second conversation has finished (the first never does). */
let secondFinished!: () => void;
const finishedBehind = new Promise<void>((resolve) => (secondFinished = resolve));

vi.mock('../../../src/conversation/replay-all.js', async (importOriginal) => {
  const actual = await importOriginal<typeof ReplayAll>();
  return {
    ...actual,
    replayAll(items: readonly ReplayOptions[], options: ReplayAllOptions = {}) {
      const second = items[1]!;
      setImmediate(() => {
        options.onSettled?.(
          {
            name: second.conversation.name,
            file: second.file!,
            ok: true,
            steps: [],
            protocolMs: 0,
            wallMs: 5,
          },
          1,
        );
        secondFinished();
      });
      return new Promise(() => undefined); // the first conversation never ends
    },
  };
});

describe('replay interrupted with a conversation finished out of order', () => {
  it('reports it as passed; only the one still running is interrupted', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const xml = join(mkdtempSync(join(tmpdir(), 'svc-interrupt-')), 'r.xml');
    const run = runInProcess(t, [
      'replay',
      'fixtures/conversations/text-both-ways.json',
      'fixtures/conversations/typing-both-ways.json',
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    await finishedBehind;
    t.abort();
    expect(await run).toBe(130);
    expect(t.stderr()).toContain('interrupted: 1 of 2 conversations finished');
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toMatch(/<testsuite [^>]*tests="2" failures="0" errors="1"/);
    // passed: no error, no failure in its case
    expect(junit).toMatch(
      /<testcase name="typing notices both ways" [^>]*>\s*<system-out><\/system-out>\s*<\/testcase>/,
    );
    expect(junit).toMatch(
      /<testcase name="text both ways" [^>]*>\s*<error message="interrupted before it finished"/,
    );
  });
});
