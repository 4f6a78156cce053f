/**
 * svc-cli/msw writes a recording as `platform --record` does, from its `record` option or
 * SVC_RECORD, so `svc-cli coverage` and `mutate --coverage` read what a suite did without a
 * change to the suite.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClock } from '../../../src/clock.js';
import { createMswPlatform } from '../../../src/msw/index.js';
import { parseNdjson } from '../../../src/conversation/record/read-recording.js';

const hello = { sender: { id: 'c-1', name: 'Ann' }, message: { type: 'text', text: 'Hello' } };

async function oneMessage(options: { record?: string }): Promise<void> {
  const sim = createMswPlatform({
    baseUrl: 'https://platform.test',
    clock: createClock({ timeScale: 0.001 }),
    channels: [{ id: 'shop', randomString: 'test-random-string-0123456789' }],
    ...options,
  });
  const server = setupServer(...sim.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const response = await fetch(sim.channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hello),
    });
    expect(response.status).toBe(200);
  } finally {
    server.close();
    await sim.close();
  }
}

afterEach(() => vi.unstubAllEnvs());

describe('svc-cli/msw recording', () => {
  it('appends every exchange to the record option as NDJSON records', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-msw-')), 'run.ndjson');
    await oneMessage({ record: file });
    const records = parseNdjson(readFileSync(file, 'utf8'), file);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ iface: 'channel', kind: 'channel.customer.text' });
  });

  it('takes the file from SVC_RECORD when no option is given', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-msw-')), 'env.ndjson');
    vi.stubEnv('SVC_RECORD', file);
    await oneMessage({});
    await oneMessage({});
    expect(parseNdjson(readFileSync(file, 'utf8'), file)).toHaveLength(2);
  });
});
