import { describe, expect, it } from 'vitest';
import { assertReachable } from '../../src/http/reach.js';
import { freePort } from '../helpers/free-port.js';

describe('assertReachable with --wait', () => {
  it('a signal ends the wait: interrupted, never "still after" the wait it did not last', async () => {
    const url = `http://127.0.0.1:${await freePort()}/hooks`;
    const waiting = assertReachable(url, 'the hook receiver', {
      action: 'replay',
      waitMs: 60_000,
      signal: AbortSignal.abort(),
    });
    await expect(waiting).rejects.toMatchObject({ code: 'SVC_E_PEER_UNREACHABLE' });
    await expect(waiting).rejects.toThrow(
      new RegExp(
        `^Could not replay: interrupted while waiting for the hook receiver at ${url.replace(/\./g, '\\.')} \\(connection refused until then, \\d+ ms in\\)\\.$`,
      ),
    );
  });
});
