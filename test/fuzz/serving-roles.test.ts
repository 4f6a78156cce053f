/**
 * Property-based fuzzing of every serving role. `npm test` runs a bounded number of
 * cases; `npm run fuzz` runs FC_RUNS (default 2000) per property, each with a timeout that
 * follows the count (./runs.ts). A failure prints fast-check's
 * `seed` and `path`: replay it with `FC_SEED=<seed> FC_PATH=<path> npm run fuzz`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeRequest, requestOf } from './arbitraries.js';
import { FC_RUNS } from './runs.js';
import { sendRaw } from './raw-http.js';
import { startTargets, type FuzzTarget } from './targets.js';

const RUNS = FC_RUNS;
const SEED = process.env.FC_SEED === undefined ? {} : { seed: Number(process.env.FC_SEED) };
const PATH = process.env.FC_PATH === undefined ? {} : { path: process.env.FC_PATH };
const params = (numRuns: number) => ({ numRuns, ...SEED, ...PATH, endOnFailure: true });

let targets: FuzzTarget[] = [];
beforeAll(async () => {
  targets = await startTargets();
});
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

/** Waits until every request that reached the handler is journaled (or fails after 2 s). */
async function expectJournaledOnce(target: FuzzTarget): Promise<void> {
  await vi.waitFor(() => expect(target.journaled()).toBe(target.handled()), {
    timeout: 2000,
    interval: 2,
  });
}

describe.each(['platform', 'listen', 'bot-sim', 'hook-target'] as const)('fuzz %s', (name) => {
  const target = () => targets.find((t) => t.name === name)!;

  it('answers every request within the bound, 4xx with a JSON error for client errors, never 5xx, and journals it once', async () => {
    const t = target();
    await fc.assert(
      fc.asyncProperty(requestOf(t.paths), async (request) => {
        const truncated = request.framing === 'truncated';
        const answer = await sendRaw(t.port, encodeRequest(request), {
          end: truncated,
          timeoutMs: 3000,
        });
        expect(answer.timedOut, 'the server held the socket').toBe(false);
        if (answer.status !== undefined) {
          expect(answer.status, answer.body).toBeLessThan(500);
          if (answer.status >= 400 && request.method !== 'HEAD') {
            const body = JSON.parse(answer.body) as {
              error?: { code?: unknown; message?: unknown };
            };
            expect(typeof body.error?.code).toBe('string');
            expect(typeof body.error?.message).toBe('string');
          }
        } else {
          // only a body cut off by the client may go unanswered
          expect(truncated, 'a complete request got no answer').toBe(true);
        }
        await expectJournaledOnce(t);
      }),
      params(RUNS),
    );
  });

  it('answers malformed HTTP with 400 or a closed socket, never a hang', async () => {
    const t = target();
    const garbage = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(
        'GET\r\n\r\n',
        'GET / HTTP/9.9\r\n\r\n',
        'POST / HTTP/1.1\r\ncontent-length: -1\r\n\r\n',
        'POST / HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab',
        'POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
        'POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n0\r\n\r\n',
        'GET / HTTP/1.1\r\nbad header\r\n\r\n',
        `GET / HTTP/1.1\r\nx: ${'a'.repeat(20_000)}\r\n\r\n`,
        'GET /\x00 HTTP/1.1\r\n\r\n',
      ),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (text) => {
        const answer = await sendRaw(t.port, [Buffer.from(text, 'latin1')], {
          end: true,
          timeoutMs: 3000,
        });
        expect(answer.timedOut).toBe(false);
        if (answer.status !== undefined) expect(answer.status).toBeLessThan(500);
        await expectJournaledOnce(t);
      }),
      params(Math.ceil(RUNS / 3)),
    );
  });
});
