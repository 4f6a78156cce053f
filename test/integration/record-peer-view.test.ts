/**
 * A recording the integrator made (`listen --record`), read as the platform saw it, beside the
 * platform's recording of the same conversation: `record diff` reads both sides of each
 * exchange as one, whatever the integrator answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { observeRecordings } from '../../src/conversation/record/observe.js';
import { convertRecording } from '../../src/conversation/record/to-fixture.js';
import { readRecording } from '../../src/conversation/record/read-recording.js';
import { spanOf } from '../../src/trace/span.js';
import type { Fault } from '../../src/faults/fault.js';
import type { ListenerOptions } from '../../src/roles/integrator/index.js';
import { closeRecordedSession, recordSession } from '../helpers/record-session.js';

let dir: string;
const file = (name: string) => join(dir, name);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-peer-view-'));
});
afterEach(closeRecordedSession);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The platform's and listen's recordings of one session, observed. */
async function bothSides(name: string, listener: Partial<ListenerOptions>, sequence: Fault[] = []) {
  const [platformFile, listenFile] = [
    file(`${name}-platform.ndjson`),
    file(`${name}-listen.ndjson`),
  ];
  await recordSession(platformFile, listenFile, sequence, listener);
  await closeRecordedSession();
  return {
    platform: await observeRecordings([platformFile]),
    listen: await observeRecordings([listenFile]),
  };
}

describe('a peer recording read as the platform saw it', () => {
  it('a delivery the integrator refused before reading it is the one the platform sent', async () => {
    // spec 4.2: the agent message goes to POST {integrator_url}/<channel_public_id>; this
    // integrator serves another channel, so it answers each attempt 404 before judging it
    const { platform, listen } = await bothSides('wrong-channel', { channel: 'other' });
    const sent = listen.kinds['channel.agent.text'];
    expect(sent?.direction).toBe('out');
    expect(sent?.statuses).toEqual(platform.kinds['channel.agent.text']?.statuses);
    expect(Object.keys(listen.kinds).sort()).toEqual([
      'channel.agent.text',
      'channel.agent.typing',
    ]);
    expect(diffObservations(platform, listen).differences).toEqual([]);
  });

  it("a reply slower than the platform's wait is the timeout the platform saw", async () => {
    // spec 8: each attempt waits 3 s for the whole reply; this integrator's 200 comes in
    // pieces over 5 s, so listen recorded a 200 the platform never had in full
    const slow = { fault: { kind: 'slow-body', durationMs: 5000 } } as const;
    const { platform, listen } = await bothSides('slow-body', { plan: slow });
    const sent = listen.kinds['channel.agent.text'];
    expect(sent?.statuses).toEqual({ 'no answer: timeout': 6 });
    expect(sent?.statuses).toEqual(platform.kinds['channel.agent.text']?.statuses);
    expect(sent?.series?.outcomes).toEqual({ 'gave-up': 2 });
    expect(diffObservations(platform, listen).differences).toEqual([]);
    // trace draws it as the platform's recording does
    const records = await readRecording(file('slow-body-listen.ndjson'));
    expect(records.map((r) => spanOf(r).failure)).toEqual(records.map(() => 'timeout'));
    expect(records.map((r) => spanOf(r).status)).toEqual(records.map(() => undefined));
    // and record to-fixture writes the deliveries the platform's recording gives: failed
    const deliveries = async (name: string) =>
      convertRecording({ records: await readRecording(file(name)) }).steps.flatMap((step) =>
        'delivery' in step && step.delivery ? [step.delivery] : [],
      );
    const fromPlatform = await deliveries('slow-body-platform.ndjson');
    expect(fromPlatform.map((d) => d.result)).toEqual(['failed', 'failed', 'failed']);
    expect(await deliveries('slow-body-listen.ndjson')).toEqual(fromPlatform);
  });
});
