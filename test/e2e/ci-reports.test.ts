/**
 * What CI publishes: an unreachable --file server is exit 3.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { freePort } from '../helpers/free-port.js';

describe('send-media --file on a server that cannot be reached', () => {
  it('exits 3 as an unreachable platform does', async () => {
    const port = await freePort();
    const run = await runCli([
      'send-media',
      'photo',
      '--file',
      `http://127.0.0.1:${port}/cat.jpg`,
      '--sender-id',
      'c-1',
      '--channel-url',
      `http://127.0.0.1:${port}/abc/def`,
    ]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(
      /SVC_E_UNREACHABLE.*Could not learn the size of http:\/\/127\.0\.0\.1:\d+\/cat\.jpg: connection refused/,
    );
  });
});
