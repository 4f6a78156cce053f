/**
 * A command pointed at the wrong side, as a user sees it (newcomer passes): send-text at
 * svc-cli listen stops with SVC_E_NOT_A_CHANNEL and prints no "200 ok" line first; a failed
 * conform run names the svc-cli role its URL is, in pretty and in the JSON summary; hook-fire
 * at listen, whose reply conforms, stops with SVC_E_NOT_A_HOOK_TARGET.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener, type Listener } from '../../src/roles/integrator/index.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';

const cwd = process.cwd();
let listener: Listener | undefined;
afterEach(async () => {
  await listener?.close(10);
  listener = undefined;
});

describe('pointed at svc-cli listen', () => {
  it('send-text --json prints only the error line and exits 2', async () => {
    listener = await createListener();
    const t = createTestContext({ cwd });
    const code = await runInProcess(t, [
      '--json',
      'send-text',
      'hi',
      '--channel-url',
      `${listener.url}/agent-messages`,
      '--sender-id',
      'c1',
    ]);
    expect(code).toBe(2);
    const lines = t.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'error',
      code: 'SVC_E_NOT_A_CHANNEL',
      category: 'input',
    });
  });

  it('a failed conform hooks run says which role the URL is, pretty and --reporter json', async () => {
    listener = await createListener();
    const hint = `${listener.url} is svc-cli listen (it plays the integrator and receives agent messages, spec 4.2); conform hooks tests a hook receiver (spec 4.4), such as svc-cli hook-target.`;
    const conformHooks = ['--time-scale', '0.1', 'conform', 'hooks', '--url', listener.url];
    const pretty = createTestContext({ cwd });
    expect(await runInProcess(pretty, conformHooks)).toBe(1);
    expect(pretty.stdout()).toContain(`failed, 0 skipped\n${hint}\n`);
    const json = createTestContext({ cwd });
    await runInProcess(json, [...conformHooks, '--reporter', 'json']);
    const summary = json
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string })
      .find((event) => event.type === 'summary');
    expect(summary).toMatchObject({ hint, wrongPeer: { command: 'listen' } });
  });

  it('hook-fire --all stops with SVC_E_NOT_A_HOOK_TARGET before any "conforms" line', async () => {
    listener = await createListener();
    const url = `${listener.url}/hooks`;
    const pretty = createTestContext({ cwd });
    expect(await runInProcess(pretty, ['hook-fire', '--all', '--url', url])).toBe(2);
    expect(pretty.stdout()).not.toContain('conforms');
    expect(pretty.stderr()).toContain(
      `Could not fire chat_accepted: ${new URL(url).host} is svc-cli listen (it plays the integrator and receives agent messages, spec 4.2), not a hook receiver (spec 4.4).`,
    );
    const json = createTestContext({ cwd });
    expect(await runInProcess(json, ['--json', 'hook-fire', 'chat_accepted', '--url', url])).toBe(
      2,
    );
    const lines = json.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'error',
      code: 'SVC_E_NOT_A_HOOK_TARGET',
      category: 'input',
    });
  });

  it('hook-fire at hook-target prints no such warning', async () => {
    const target = await createHookTarget();
    try {
      const t = createTestContext({ cwd });
      await runInProcess(t, ['hook-fire', 'chat_accepted', '--url', target.url]);
      expect(t.stdout()).toContain('✓ reply conforms');
      expect(t.stdout()).not.toContain('warning');
    } finally {
      await target.close();
    }
  });
});
