/**
 * A HAR svc-cli did not write (a browser's DevTools or Charles export: no `_svc`, no comment)
 * is read by what its requests are: the interface, direction and kind from URL, method and
 * body, as the platform classifies what it receives; one with none of the contract's
 * exchanges is refused, not summed up as `channel.in.unknown`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { observeRecordings } from '../../src/conversation/record/observe.js';
import { readRecording } from '../../src/conversation/record/read-recording.js';
import { recordDriftSession } from '../helpers/drift-session.js';

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-foreign-har-'));
  await recordDriftSession(file('svc.har'));
  const har = JSON.parse(readFileSync(file('svc.har'), 'utf8')) as {
    log: { entries: Record<string, unknown>[] };
  };
  for (const entry of har.log.entries) {
    delete entry._svc;
    delete entry.comment;
  }
  writeFileSync(file('foreign.har'), JSON.stringify(har));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const legs = (seen: Awaited<ReturnType<typeof observeRecordings>>) =>
  Object.values(seen.kinds)
    .map((k) => `${k.iface} ${k.direction} ${k.kind}`)
    .sort();

describe('a HAR not written by svc-cli', () => {
  it('its entries get the kinds, interfaces and directions svc-cli recorded', async () => {
    const svc = await observeRecordings([file('svc.har')]);
    const foreign = await observeRecordings([file('foreign.har')]);
    expect(legs(foreign)).toEqual(legs(svc));
    expect(legs(foreign)).toEqual(
      expect.arrayContaining([
        'channel in channel.customer.text',
        'channel out channel.agent.text',
        'bot out bot.event.CLIENT_MESSAGE',
      ]),
    );
    expect(Object.keys(foreign.kinds).filter((k) => k.endsWith('.unknown'))).toEqual([]);
    // no kind sent on one side only: the same exchanges
    const kinds = diffObservations(svc, foreign).differences.filter((d) => d.aspect === 'kind');
    expect(kinds).toEqual([]);
  });

  it('one with no exchange of the contract is refused with SVC_E_RECORDING', async () => {
    const page = {
      log: {
        entries: [
          {
            startedDateTime: '2026-12-01T00:00:00.000Z',
            time: 5,
            request: { method: 'GET', url: 'https://shop.example/app.js', headers: [] },
            response: { status: 200, headers: [], content: { text: 'x()' } },
          },
        ],
      },
    };
    writeFileSync(file('page.har'), JSON.stringify(page));
    for (const read of [
      () => observeRecordings([file('page.har')]),
      () => readRecording(file('page.har')),
    ])
      await expect(read()).rejects.toMatchObject({
        code: 'SVC_E_RECORDING',
        message: expect.stringContaining('this HAR was not written by svc-cli') as unknown,
      });
  });
});
