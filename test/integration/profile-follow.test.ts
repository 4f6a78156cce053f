import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { observeRecordings } from '../../src/conversation/record/observe.js';
import {
  learnProfile,
  loadProfile,
  settingsOf,
  type Profile,
} from '../../src/conversation/record/profile.js';
import { recordDriftSession, underProfile } from '../helpers/drift-session.js';

let dir: string;
const file = (name: string) => join(dir, name);

/**
 * Another platform, written by hand: three bot attempts, agent messages resent 5 s apart,
 * numeric chat and message ids, millisecond timestamps (no kind observed: nothing removed).
 */
const OTHER: Profile = {
  version: 1,
  name: 'other',
  channel: { intervalMs: { value: 5000, observations: 0 } },
  bot: { attempts: { value: 3, observations: 0 } },
  kinds: {
    'bot.event.CLIENT_MESSAGE': {
      observations: 0,
      statuses: {},
      fields: { chat_id: { number: 1 }, 'message.timestamp': { 'number (ms timestamp)': 1 } },
    },
    'bot.event.AGENT_JOINED': { observations: 0, statuses: {}, fields: { chat_id: { number: 1 } } },
    'channel.agent.text': {
      observations: 0,
      statuses: {},
      fields: { 'message.id': { number: 1 } },
    },
  },
};

/**
 * A platform that answers a customer's message 202, sends a `visitor.lang` in CLIENT_MESSAGE
 * that the simulator does not know, and no agent photo (an observed kind: its fields are all
 * it sends).
 */
const EXTRA: Profile = {
  version: 1,
  name: 'extra',
  kinds: {
    'channel.customer.text': { observations: 1, statuses: { '202': 1 }, fields: {} },
    'bot.event.CLIENT_MESSAGE': {
      observations: 0,
      statuses: {},
      fields: { visitor: { object: 1 }, 'visitor.lang': { string: 1 } },
    },
    'channel.agent.text': {
      observations: 4,
      statuses: { '200': 4 },
      fields: Object.fromEntries(
        [
          'sender',
          'sender.name',
          'recipient',
          'recipient.id',
          'message',
          'message.type',
          'message.text',
          'message.id',
        ].map((path) => [path, { [path.includes('.') ? 'string' : 'object']: 4 }]),
      ),
    },
  },
};

/** A platform that resends at 3 s, then 10 s: uneven gaps, within the public 3-60 s window. */
const UNEVEN: Profile = {
  version: 1,
  name: 'uneven',
  channel: { scheduleMs: { value: [0, 3000, 10_000], observations: 0 } },
};

const diff = async (a: string, b: string) =>
  diffObservations(await observeRecordings([file(a)]), await observeRecordings([file(b)]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-follow-'));
  await recordDriftSession(
    file('spec.ndjson'),
    underProfile(settingsOf({ version: 1, name: 's' })),
  );
  await recordDriftSession(file('other.ndjson'), underProfile(settingsOf(OTHER)));
  await recordDriftSession(file('extra.ndjson'), underProfile(settingsOf(EXTRA)));
  await recordDriftSession(file('uneven.ndjson'), underProfile(settingsOf(UNEVEN)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the simulator follows a profile', () => {
  it('3 vs 2 bot attempts, another schedule, numeric ids: exactly those differences', async () => {
    const result = await diff('spec.ndjson', 'other.ndjson');
    expect(result.differences.map((d) => [d.severity, d.kind, d.detail])).toEqual([
      ['behaviour', 'bot.event.CLIENT_MESSAGE', 'attempts per message: a 2 x1; b 3 x1'],
      [
        'behaviour',
        'bot.event.CLIENT_MESSAGE',
        'the platform hands over after: a 6000 ms; b 9000 ms (tolerance 250 ms)',
      ],
      [
        'behaviour',
        'channel.agent.text',
        'attempt 2 starts after the first by: a 3000 ms; b 5000 ms (tolerance 250 ms)',
      ],
      [
        'behaviour',
        'channel.agent.text',
        'attempt 3 starts after the first by: a 6000 ms; b 10000 ms (tolerance 250 ms)',
      ],
      [
        'behaviour',
        'channel.agent.text',
        'the platform gives up after: a 9000 ms; b 13000 ms (tolerance 250 ms)',
      ],
      [
        'shape',
        'bot.event.AGENT_JOINED',
        'chat_id: typed differently: a numeric string x1; b number x1',
      ],
      [
        'shape',
        'bot.event.CLIENT_MESSAGE',
        'chat_id: typed differently: a numeric string x2; b number x3',
      ],
      [
        'shape',
        'bot.event.CLIENT_MESSAGE',
        'message.timestamp: typed differently: a number (s timestamp) x2; b number (ms timestamp) x3',
      ],
      ['shape', 'channel.agent.text', 'message.id: typed differently: a string x4; b number x4'],
    ]);
  });

  it('a status code, an extra field, a field never sent: exactly those differences', async () => {
    const result = await diff('spec.ndjson', 'extra.ndjson');
    expect(result.differences.map((d) => [d.severity, d.kind, d.detail])).toEqual([
      ['behaviour', 'channel.customer.text', 'status codes: a 200 x1; b 202 x1'],
      [
        'shape',
        'bot.event.CLIENT_MESSAGE',
        'visitor: present in b (2 of 2, object x2), absent in a',
      ],
      [
        'shape',
        'channel.agent.text',
        'sender.photo: present in a (4 of 4, string x4), absent in b',
      ],
    ]);
  });

  it('an uneven resend schedule: the attempt that is off it, and the give-up', async () => {
    const result = await diff('spec.ndjson', 'uneven.ndjson');
    expect(result.differences.map((d) => [d.severity, d.kind, d.detail])).toEqual([
      [
        'behaviour',
        'channel.agent.text',
        'attempt 3 starts after the first by: a 6000 ms; b 10000 ms (tolerance 250 ms)',
      ],
      [
        'behaviour',
        'channel.agent.text',
        'the platform gives up after: a 9000 ms; b 13000 ms (tolerance 250 ms)',
      ],
    ]);
    const learned = learnProfile(await observeRecordings([file('uneven.ndjson')]), 'u');
    expect(learned.channel?.scheduleMs).toEqual({ value: [0, 3000, 10_000], observations: 1 });
  });

  it.each(['other', 'extra', 'uneven', 'spec'])(
    'a profile learned from the %s recording makes a recording that diffs clean against it',
    async (name) => {
      writeFileSync(
        file(`${name}.profile.json`),
        JSON.stringify(learnProfile(await observeRecordings([file(`${name}.ndjson`)]), name)),
      );
      const settings = settingsOf(await loadProfile(`${name}.profile.json`, dir));
      await recordDriftSession(file(`${name}-again.ndjson`), underProfile(settings));
      const result = await diff(`${name}.ndjson`, `${name}-again.ndjson`);
      expect(result.differences).toEqual([]);
    },
  );
});
