/**
 * The package's main entry (`import { createPlatform } from 'svc-cli'`): what the docs show in
 * code (docs/platform.md, docs/coverage.md, docs/RELIABILITY.md) is exported from it.
 */
import { describe, expect, it } from 'vitest';
import * as main from '../../src/index.js';

describe("svc-cli's main entry", () => {
  it('exports createPlatform, which serves a channel through its fetch face with a plan', async () => {
    const platform = main.createPlatform({
      clock: main.createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'entry-test-random-string-0001' }],
      faults: { failFirst: 1, failWith: 'status:503' },
    });
    try {
      const url = 'http://platform.test/entry-test-random-string-0001/shop';
      const send = () =>
        platform.fetch(
          new Request(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
          }),
        );
      expect((await send()).status).toBe(503);
      expect((await send()).status).toBe(200);
      await expect(
        main.sendAgentMessage(platform.core, {
          customerId: 'c-1',
          message: { type: 'text', text: 'Hi' },
        }),
      ).resolves.toBeDefined();
    } finally {
      await platform.close();
    }
  });
});
