/**
 * `replay --help` shows how to run the bundled bot conversations against your own bot
 * (docs/bot.md): the bot's URL, the port its answers go to, and its own token and id.
 */
import { describe, expect, it } from 'vitest';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

describe('replay --help', () => {
  it('has an example against your own bot', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runInProcess(t, ['replay', '--help'])).toBe(0);
    const examples = t.stdout().slice(t.stdout().indexOf('Examples:'));
    expect(examples.replace(/\s*\\\n\s*/g, ' ')).toContain(
      '$ svc-cli replay --grep bot- --bot-url http://127.0.0.1:9100 --platform-port 8801 --bot-token dev-bot-token --bot-provider-id dev-provider',
    );
  });
});
