import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { observeRecordings } from '../../src/conversation/record/observe.js';
import { BOT_DELIVERY_POLICY } from '../../src/platform/delivery.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { recordDriftSession } from '../helpers/drift-session.js';
import type { ExchangeRecord } from '../../src/journal/record.js';

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-drift-'));
  // the same conversation three times: as the spec has it, with the public docs' third bot
  // attempt, and with an integrator that refuses the agent's first message to the end
  await recordDriftSession(file('spec.ndjson'), { integrator: [{ kind: 'status', status: 503 }] });
  await recordDriftSession(file('three.ndjson'), {
    integrator: [{ kind: 'status', status: 503 }],
    bot: { policy: { ...BOT_DELIVERY_POLICY, attempts: 3, failAfterMs: 9000 } },
  });
  await recordDriftSession(file('refused.ndjson'), {
    integrator: [
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    ],
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const diff = async (a: string, b: string) =>
  diffObservations(await observeRecordings([file(a)]), await observeRecordings([file(b)]));

describe('record diff', () => {
  it('a recording diffs clean against itself', async () => {
    const result = await diff('spec.ndjson', 'spec.ndjson');
    expect(result.differences).toEqual([]);
  });

  it('the same session recorded as HAR diffs clean against its NDJSON', async () => {
    await recordDriftSession(file('spec.har'), { integrator: [{ kind: 'status', status: 503 }] });
    const result = await diff('spec.ndjson', 'spec.har');
    expect(result.differences).toEqual([]);
  });

  it('3 bot attempts against 2: the attempts and the hand-over time, nothing else', async () => {
    const result = await diff('spec.ndjson', 'three.ndjson');
    expect(result.differences.map((d) => [d.severity, d.kind, d.aspect, d.detail])).toEqual([
      ['behaviour', 'bot.event.CLIENT_MESSAGE', 'attempts', 'attempts per message: a 2 x1; b 3 x1'],
      [
        'behaviour',
        'bot.event.CLIENT_MESSAGE',
        'hand-over',
        'the platform hands over after: a 6000 ms; b 9000 ms (tolerance 250 ms)',
      ],
    ]);
  });

  it('another redelivery outcome: attempts and how the series ended', async () => {
    const result = await diff('spec.ndjson', 'refused.ndjson');
    expect(result.differences.map((d) => [d.severity, d.kind, d.aspect, d.detail])).toEqual([
      [
        'behaviour',
        'channel.agent.text',
        'attempts',
        'attempts per message: a 1 x1, 2 x1; b 1 x1, 3 x1',
      ],
      [
        'behaviour',
        'channel.agent.text',
        'outcome',
        'how the series ended: a accepted x2; b accepted x1, gave-up x1',
      ],
    ]);
  });

  it('a hand-over inside the timing tolerance is the same', async () => {
    const a = await observeRecordings([file('spec.ndjson')]);
    const b = await observeRecordings([file('three.ndjson')]);
    const aspects = diffObservations(a, b, { timingToleranceMs: 5000 }).differences.map(
      (d) => d.aspect,
    );
    expect(aspects).toEqual(['attempts']);
  });

  it('shape: a numeric id and a missing field, grouped apart from behaviour', async () => {
    const lines = readFileSync(file('spec.ndjson'), 'utf8').trim().split('\n');
    const changed = lines.map((line) => {
      const record = JSON.parse(line) as { kind?: string; request: { body?: string } };
      if (record.kind !== 'bot.event.CLIENT_MESSAGE' || !record.request.body) return line;
      const body = JSON.parse(record.request.body) as Record<string, unknown>;
      body.chat_id = Number(body.chat_id);
      delete body.site_id;
      record.request.body = JSON.stringify(body);
      return JSON.stringify(record);
    });
    writeFileSync(file('numeric.ndjson'), `${changed.join('\n')}\n`);
    const result = await diff('spec.ndjson', 'numeric.ndjson');
    expect(result.counts).toEqual({ behaviour: 0, shape: 2, cosmetic: 0 });
    expect(result.differences.map((d) => d.detail)).toEqual([
      'chat_id: typed differently: a numeric string x2; b number x2',
      'site_id: present in a (2 of 2, string x2), absent in b',
    ]);
  });

  it('the command: grouped lines, --json objects, exit 1 on behaviour, 0 when clean', async () => {
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['record', 'diff', 'spec.ndjson', 'three.ndjson'])).toBe(1);
    expect(t.stdout()).toContain('behaviour (what a peer sees happen)');
    // each line says whose doing it is: the platform's, the peer's (by name) or both
    expect(t.stdout()).toContain(
      'bot.event.CLIENT_MESSAGE  [both]  attempts per message: a 2 x1; b 3 x1',
    );
    expect(t.stdout()).toContain(
      "2 differences: 2 behaviour, 0 shape, 0 cosmetic; 1 the platform's, 0 the peers' (their answers or requests), 1 both",
    );

    const j = createTestContext({ cwd: dir });
    expect(await runInProcess(j, ['record', 'diff', 'spec.ndjson', 'spec.ndjson', '--json'])).toBe(
      0,
    );
    const objects = j
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(objects).toEqual([
      expect.objectContaining({ type: 'diff-summary', behaviour: 0, shape: 0, cosmetic: 0 }),
    ]);

    const bad = createTestContext({ cwd: dir });
    expect(
      await runInProcess(bad, [
        'record',
        'diff',
        'spec.ndjson',
        'x.ndjson',
        '--timing-tolerance',
        'soon',
      ]),
    ).toBe(2);
    expect(bad.stderr()).toContain('Could not use --timing-tolerance "soon": must be a duration');
  });

  it('conversations replayed at once: their interleaving is no order difference', async () => {
    // two runs (replay's conversations), each a customer message then a hook, written one
    // run after the other, and interleaved as conversations running at once append them
    const record = (run: string, seq: number, hook: boolean): ExchangeRecord => ({
      type: 'exchange',
      seq,
      run,
      at: new Date(1_700_000_000_000 + seq).toISOString(),
      protocolMs: 0,
      iface: hook ? 'hook' : 'channel',
      direction: hook ? 'out' : 'in',
      kind: hook ? 'hook.chat_accepted' : 'channel.customer.text',
      request: { method: 'POST', url: 'http://p.test/x', body: '{}' },
      response: { status: 200, body: '{}' },
    });
    const write = (name: string, records: ExchangeRecord[]): void =>
      writeFileSync(file(name), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    write('one-by-one.ndjson', [
      record('r1', 1, false),
      record('r1', 2, true),
      record('r2', 1, false),
      record('r2', 2, true),
    ]);
    write('at-once.ndjson', [
      record('r1', 1, false),
      record('r2', 1, false),
      record('r1', 2, true),
      record('r2', 2, true),
    ]);
    const result = await diff('one-by-one.ndjson', 'at-once.ndjson');
    expect(result.differences).toEqual([]);
    const seen = await observeRecordings([file('at-once.ndjson')]);
    expect(seen.order).toEqual({ 'channel.customer.text -> hook.chat_accepted': 2 });
  });

  it('counts of one are singular: 1 exchange, 1 kind, 1 difference', async () => {
    const one = (kind: string): string =>
      `${JSON.stringify({
        type: 'exchange',
        seq: 1,
        run: 'r',
        at: '2026-01-01T00:00:00.000Z',
        protocolMs: 0,
        iface: 'hook',
        direction: 'out',
        kind,
        request: { method: 'POST', url: 'http://p.test/x', body: '{}' },
        response: { status: 200, body: '{}' },
      })}\n`;
    writeFileSync(file('accepted.ndjson'), one('hook.chat_accepted'));
    writeFileSync(file('finished.ndjson'), one('hook.chat_finished'));
    writeFileSync(file('both.ndjson'), one('hook.chat_accepted') + one('hook.chat_finished'));

    const two = createTestContext({ cwd: dir });
    expect(await runInProcess(two, ['record', 'diff', 'accepted.ndjson', 'finished.ndjson'])).toBe(
      1,
    );
    expect(two.stdout()).toContain('a: accepted.ndjson (1 exchange, 1 kind)');
    expect(two.stdout()).toContain('hook.chat_accepted  [platform]  sent only in a (1 exchange)');
    expect(two.stdout()).toContain('2 differences: 2 behaviour, 0 shape, 0 cosmetic;');

    const single = createTestContext({ cwd: dir });
    expect(await runInProcess(single, ['record', 'diff', 'both.ndjson', 'accepted.ndjson'])).toBe(
      1,
    );
    expect(single.stdout()).toContain('a: both.ndjson (2 exchanges, 2 kinds)');
    expect(single.stdout()).toContain('1 difference: 1 behaviour, 0 shape, 0 cosmetic;');

    const profile = createTestContext({ cwd: dir });
    expect(
      await runInProcess(profile, ['record', 'profile', 'accepted.ndjson', '--out', 'one.json']),
    ).toBe(0);
    expect(profile.stderr()).toContain('profile written to one.json: 1 exchange, 1 kind');
  });
});
