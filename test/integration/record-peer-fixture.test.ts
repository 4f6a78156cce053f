/**
 * record to-fixture and a peer's own recording: a bot-sim or hook-target recording holds what
 * the platform sent the peer, and nothing that drove the chats, so it is refused naming the
 * recording to convert instead (exit 2, SVC_E_RECORDING), not taken for a proxy's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../src/journal/record.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-peer-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exchange = (
  seq: number,
  iface: ExchangeRecord['iface'],
  direction: ExchangeRecord['direction'],
  kind: string,
  body: unknown,
): ExchangeRecord => ({
  type: 'exchange',
  seq,
  run: 'r1',
  at: '2026-12-01T00:00:00.000Z',
  protocolMs: seq * 10,
  durationMs: 2,
  iface,
  direction,
  kind,
  ...(direction === 'in' ? { attempt: 1 } : {}),
  request: { method: 'POST', url: 'http://127.0.0.1:9100/x', body: JSON.stringify(body) },
  response: { status: 200, body: '{"result":"ok"}' },
});

function write(name: string, records: ExchangeRecord[]): string {
  writeFileSync(join(dir, name), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return name;
}

async function toFixture(file: string) {
  const t = createTestContext({ cwd: dir });
  const code = await runInProcess(t, ['record', 'to-fixture', file]);
  return { code, stderr: t.stderr() };
}

describe('record to-fixture of a peer recording', () => {
  it('refuses a bot-sim recording, naming the platform recording to convert', async () => {
    const file = write('bot.ndjson', [
      exchange(1, 'bot', 'in', 'bot.event.CLIENT_MESSAGE', { event: 'CLIENT_MESSAGE' }),
      exchange(2, 'bot', 'out', 'bot.event.BOT_MESSAGE', { event: 'BOT_MESSAGE' }),
    ]);
    const { code, stderr } = await toFixture(file);
    expect(code).toBe(2);
    expect(stderr).toContain('error [SVC_E_RECORDING]');
    expect(stderr).toContain('it is a `bot-sim --record` recording');
    expect(stderr).not.toContain('proxy bot');
    expect(stderr).toContain('svc-cli platform --record session.ndjson --bot-provider-url');
  });

  it('refuses a hook-target recording alike', async () => {
    const file = write('hooks.ndjson', [
      exchange(1, 'hook', 'in', 'hook.chat_accepted', { event_name: 'chat_accepted' }),
    ]);
    const { code, stderr } = await toFixture(file);
    expect(code).toBe(2);
    expect(stderr).toContain('it is a `hook-target --record` recording');
    expect(stderr).toContain('svc-cli platform --record session.ndjson --hook-url');
  });
});
