import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { observeRecordings } from '../../src/conversation/record/observe.js';
import {
  DOCS_PROFILE,
  learnProfile,
  loadProfile,
  profileSchema,
  settingsOf,
} from '../../src/conversation/record/profile.js';
import { botOptions } from '../../src/cli/commands/platform-bot.js';
import { BOT_DELIVERY_POLICY, CHANNEL_DELIVERY_POLICY } from '../../src/platform/delivery.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { recordDriftSession, refusing, underProfile } from '../helpers/drift-session.js';

let dir: string;
const file = (name: string) => join(dir, name);
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-profile-'));
  // "the real platform": three bot attempts, agent messages resent 5 s apart
  await recordDriftSession(file('real.ndjson'), {
    integrator: refusing,
    channelPolicy: { ...CHANNEL_DELIVERY_POLICY, intervalMs: 5000, failAfterMs: 13_000 },
    bot: { policy: { ...BOT_DELIVERY_POLICY, attempts: 3, failAfterMs: 9000 } },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('record profile', () => {
  it('learns the retry schedule and the bot timing, each figure with its observations', async () => {
    const profile = learnProfile(await observeRecordings([file('real.ndjson')]), 'real');
    expect(profileSchema.parse(profile)).toEqual(profile);
    expect(profile.channel).toEqual({
      attempts: { value: 3, observations: 1 },
      intervalMs: { value: 5000, observations: 2 },
      // the give-up is not on the wire: the last attempt (at 10 s, refused at once) plus its wait
      failAfterMs: { value: 13_000, observations: 1 },
    });
    expect(profile.bot).toEqual({
      attempts: { value: 3, observations: 1 },
      intervalMs: { value: 3000, observations: 2 },
      attemptTimeoutMs: { value: 3000, observations: 3 },
      failAfterMs: { value: 9000, observations: 1 },
    });
    expect(profile.kinds?.['bot.event.CLIENT_MESSAGE']?.fields.chat_id).toEqual({
      'numeric string': 3,
    });
  });

  it('loaded into the simulator, makes a recording that diffs clean against the first', async () => {
    const t = createTestContext({ cwd: dir });
    expect(
      await runInProcess(t, ['record', 'profile', 'real.ndjson', '--out', 'real.profile.json']),
    ).toBe(0);
    expect(t.stderr()).toContain('profile written to real.profile.json');
    const settings = settingsOf(await loadProfile('real.profile.json', dir));
    await recordDriftSession(file('learned.ndjson'), underProfile(settings));
    const real = await observeRecordings([file('real.ndjson')]);
    const learned = await observeRecordings([file('learned.ndjson')]);
    expect(diffObservations(real, learned).differences).toEqual([]);
    // the spec's simulator does differ: the profile is what made the second recording match
    await recordDriftSession(
      file('spec.ndjson'),
      underProfile(settingsOf({ version: 1, name: 's' })),
    );
    const spec = await observeRecordings([file('spec.ndjson')]);
    expect(diffObservations(real, spec).counts.behaviour).toBeGreaterThan(0);
  });

  it('the docs profile: three bot attempts, hand-over at 9 s, the docs events', async () => {
    const settings = settingsOf(DOCS_PROFILE);
    expect(settings.botPolicy).toEqual({
      attempts: 3,
      intervalMs: 3000,
      attemptTimeoutMs: 3000,
      failAfterMs: 9000,
    });
    expect(settings.botEvents).toBe('docs');
    expect(settings.channelPolicy).toEqual(CHANNEL_DELIVERY_POLICY);
    expect(await loadProfile('docs', dir)).toBe(DOCS_PROFILE);
  });

  it('a file that is not a profile: an input error naming the problem', async () => {
    writeFileSync(file('v2.json'), JSON.stringify({ version: 2, name: 'x' }));
    await expect(loadProfile('v2.json', dir)).rejects.toMatchObject({
      code: 'SVC_E_PROFILE',
      message: expect.stringContaining('"version" is 2; this svc-cli reads version 1') as string,
    });
    writeFileSync(
      file('bad.json'),
      JSON.stringify({ version: 1, name: 'x', bot: { attempts: 3 } }),
    );
    await expect(loadProfile('bad.json', dir)).rejects.toMatchObject({
      code: 'SVC_E_PROFILE',
      message: expect.stringContaining('bot.attempts') as string,
    });
    expect(JSON.parse(readFileSync(file('real.profile.json'), 'utf8'))).toMatchObject({
      version: 1,
      name: 'real',
      learnedFrom: { files: ['real.ndjson'] },
    });
  });

  it('a profile of the wrong shape: each field in words, with the format', async () => {
    writeFileSync(file('shape.json'), JSON.stringify({ version: 1, channel: { attempts: '3' } }));
    await expect(loadProfile('shape.json', dir)).rejects.toMatchObject({
      code: 'SVC_E_PROFILE',
      message:
        'Could not read the profile shape.json: name: required (a string); channel.attempts: must be an object, not a string.',
      hint: "svc-cli record profile <recording> --out <file> writes a profile; the format is the svc-cli package's schemas/profile.schema.json (node_modules/svc-cli/schemas/ in a project).",
    });
  });

  it('a built-in name mistyped gets its spelling; a recording, the command that learns from it', async () => {
    await expect(loadProfile('Docs', dir)).rejects.toMatchObject({
      code: 'SVC_E_PROFILE',
      message: 'Could not read the profile Docs: no such file or folder (did you mean docs?).',
    });
    // a file name meant a file: no built-in name is suggested for it
    await expect(loadProfile('nope.json', dir)).rejects.toMatchObject({
      message: 'Could not read the profile nope.json: no such file or folder.',
    });
    await expect(loadProfile('real.ndjson', dir)).rejects.toMatchObject({
      code: 'SVC_E_PROFILE',
      message: 'Could not read the profile real.ndjson: it is a recording, not a profile.',
      hint: 'Learn a profile from it first: svc-cli record profile real.ndjson --out real.profile.json, then --profile real.profile.json.',
    });
  });
});

describe('--bot-attempts, the older switch', () => {
  const flags = {
    botProviderUrl: 'http://127.0.0.1:9/bot',
    botToken: 't',
    providerId: 'acme',
    botRateLimit: '100/1s',
    botName: 'Bot',
  };
  it('another figure than the spec wins over the profile; the spec figure leaves it', () => {
    const docs = settingsOf(DOCS_PROFILE);
    expect(botOptions({ ...flags, botAttempts: 4 }, docs)?.policy?.attempts).toBe(4);
    expect(botOptions({ ...flags, botAttempts: 2 }, docs)?.policy?.attempts).toBe(3);
    expect(botOptions({ ...flags, botAttempts: 2 }, docs)?.botEvents).toBe('docs');
    expect(botOptions({ ...flags, botAttempts: 3 })?.policy?.attempts).toBe(3);
  });
});

describe('JSON Schema of the profile', () => {
  it('is current in schemas/profile.schema.json (npm run build writes it)', () => {
    const committed = JSON.parse(readFileSync('schemas/profile.schema.json', 'utf8')) as Record<
      string,
      unknown
    >;
    const fresh = z.toJSONSchema(profileSchema, { io: 'input', unrepresentable: 'any' });
    expect({ ...committed, $id: undefined }).toEqual({ ...fresh, $id: undefined });
  });
});

describe('learned from a recording with the docs hook events', () => {
  it('the profile turns the hook service to docs; a kind without them leaves it spec', async () => {
    const { createObserver } = await import('../../src/conversation/record/observe.js');
    const observe = (kind: string) => {
      const o = createObserver(['x.ndjson']);
      o.add({
        type: 'exchange',
        seq: 1,
        run: 'r',
        at: '2026-01-01T00:00:00.000Z',
        protocolMs: 0,
        iface: 'hook',
        direction: 'out',
        kind,
        request: { method: 'POST', url: 'http://x/hooks', body: '{"event_name":"x"}' },
        response: { status: 200, body: '{"result":"ok"}' },
      } as never);
      return o.finish();
    };
    const docs = learnProfile(observe('hook.client_updated'), 'real');
    expect(docs.hooks).toEqual({ events: { value: 'docs', observations: 1 } });
    expect(settingsOf(docs).hookEvents).toBe('docs');
    expect(learnProfile(observe('hook.chat_updated'), 'real').hooks).toBeUndefined();
  });
});
