import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { observeRecordings } from '../../../src/conversation/record/observe.js';
import { learnProfile } from '../../../src/conversation/record/profile.js';
import { checkProfileFigures } from '../../../src/conversation/record/profile-agree.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-interrupted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
/** A bot event the platform sent, attempt `attempt`, ending at `endMs` after `durationMs`. */
const botEvent = (
  event: string,
  id: string,
  attempt: number,
  endMs: number,
  failure: { reason: string; message: string },
  durationMs?: number,
) =>
  JSON.stringify({
    type: 'exchange',
    seq: ++seq,
    run: 'r1',
    at: '2026-01-01T00:00:00.000Z',
    protocolMs: endMs,
    iface: 'bot',
    direction: 'out',
    kind: `bot.event.${event}`,
    attempt,
    request: { method: 'POST', url: '/bot/t', body: JSON.stringify({ event, id, chat_id: 1 }) },
    failure,
    ...(durationMs === undefined ? {} : { durationMs }),
    notes: [failure.reason === 'timeout' ? 'rejected: timeout after 3000 ms' : 'interrupted'],
  });

const timeout = { reason: 'timeout', message: 'timeout after 3000 ms' };
const interrupted = { reason: 'interrupted', message: 'interrupted: stopped' };

describe('a series the recording cut short', () => {
  it('is no give-up: two timed-out bot attempts and an AGENT_JOINED interrupted at its first', async () => {
    const file = join(dir, 'run.ndjson');
    writeFileSync(
      file,
      [
        botEvent('CLIENT_MESSAGE', 'm1', 1, 3000, timeout, 3000),
        botEvent('CLIENT_MESSAGE', 'm1', 2, 6000, timeout, 3000),
        // the replay's conversation ended while the hand-over's AGENT_JOINED was on its way
        botEvent('AGENT_JOINED', 'j1', 1, 6000, interrupted),
      ].join('\n') + '\n',
    );
    const seen = await observeRecordings([file]);
    expect(seen.kinds['bot.event.AGENT_JOINED']?.series).toBeUndefined();
    const profile = learnProfile(seen, 'run');
    expect(profile.bot).toEqual({
      attempts: { value: 2, observations: 1 },
      intervalMs: { value: 3000, observations: 1 },
      attemptTimeoutMs: { value: 3000, observations: 2 },
      // the end of attempt 2 (3 s + 3 s), not the mean with the cut series' one wait (4.5 s)
      failAfterMs: { value: 6000, observations: 1 },
    });
    expect(checkProfileFigures(profile, [file])).toEqual([]);
  });

  it('a give-up learned before the last attempt ends is named as a contradiction', () => {
    const warnings = checkProfileFigures(
      {
        version: 1,
        name: 'real',
        bot: {
          attempts: { value: 2, observations: 2 },
          intervalMs: { value: 3000, observations: 1 },
          attemptTimeoutMs: { value: 3000, observations: 2 },
          failAfterMs: { value: 4500, observations: 2 },
        },
      },
      ['real.ndjson'],
    );
    expect(warnings).toEqual([
      {
        reason: 'inconsistent',
        figure: 'bot.failAfterMs',
        files: ['real.ndjson'],
        message:
          "the profile's bot.failAfterMs (4500 ms) comes before its last attempt ends: attempt 2 of 2 starts at 3000 ms and waits 3000 ms, to 6000 ms; series cut short when a recording stopped count as given up after fewer attempts: record whole series, or set bot.failAfterMs in the profile by hand",
      },
    ]);
  });
});
