/**
 * `replay` of a fixture with page steps on the command line: the bundled page passes (exit 0);
 * the planted bad page (setup.page.hold) fails the callback-order invariant with exit 1,
 * naming the rule, its section and both callback exchanges; --no-invariant switches it off.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { lateAcceptPage } from '../helpers/late-accept-page.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-replay-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay with a page (interface C)', () => {
  it('passes the bundled page and fails the planted bad page with exit 1', async () => {
    const good = await runCli(['replay', 'fixtures/conversations/widget-callback-order.json']);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toContain('1 passed, 0 failed');

    const file = join(dir, 'late-accept.json');
    writeFileSync(file, JSON.stringify(lateAcceptPage()));
    const bad = await runCli(['replay', file]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /callback-order \(spec 6\.4\): #\d+ callback svc_onAccept at \+40\.000 s reflects pushed event \d+ \(agent_accepted, #\d+\) yet came after #\d+ callback svc_onCallEnd at \+40\.000 s, which reflects the later push \d+ \(call_status, #\d+\) \[exchanges #\d+ and #\d+;/,
    );
    const off = await runCli(['replay', file, '--no-invariant', 'callback-order']);
    expect(off.code, off.stdout).toBe(0);
  });
});
