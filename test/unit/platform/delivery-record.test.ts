/**
 * An attempt's journal line dates the attempt from when it was posted: a reply whose
 * continuation ran late (a busy machine) must not move the attempt's start, or two hooks sent
 * in order would read as sent out of order (the hook-after-finish invariant, spec 6.2).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { createJournal } from '../../../src/journal/index.js';
import { deliver, HOOK_DELIVERY_POLICY } from '../../../src/platform/delivery.js';
import { spanOf } from '../../../src/trace/span.js';

const server = createServer((_req, res) => res.end('{}'));
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('deliver: the journal line of an attempt', () => {
  it('starts when the attempt was posted, however late the line is written', async () => {
    const virtual = createVirtualClock();
    await virtual.advance(1_000);
    // protocol time moves on between the reply and the journal line (a late continuation)
    let late = 0;
    const clock = { ...virtual, now: () => virtual.now() + late };
    const journal = createJournal();
    const result = await deliver({
      deliveryId: 'd-1',
      target: 'hook',
      url,
      body: '{"event_name":"chat_updated"}',
      policy: HOOK_DELIVERY_POLICY,
      clock,
      judge: () => {
        late = 250;
        return { accepted: true, json: {} };
      },
      emit: () => undefined,
      journal,
      kind: 'hook.chat_updated',
    });
    expect(result.result).toBe('delivered');
    const [record] = journal.entries();
    expect(record).toBeDefined();
    const span = spanOf(record!);
    expect(span.startMs).toBe(1_000);
    expect(record!.protocolMs).toBe(1_000 + (record!.durationMs ?? 0));
  });
});
