import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, type Json } from '../helpers/cli.js';

const listeningOf = (o: Json): boolean => o.type === 'listening';

describe('svc-cli platform --fault (spawned)', () => {
  it('answers customer messages 503 injected, serves the control API and journals the fault', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-platform-faults-'));
    const journal = join(dir, 'faults.ndjson');
    const platform = spawnCli([
      'platform',
      '--port',
      '0',
      '--fault',
      'status:503',
      '--no-console',
      '--json',
      '--record',
      journal,
    ]);
    const listening = await platform.next(listeningOf);
    const channelUrl = (listening.channels as Json[])[0]!.url as string;
    const answer = await fetch(channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      error: { code: 'injected', message: 'svc-cli injected HTTP 503' },
    });
    const state = await fetch(`${listening.url as string}/_sim/state`);
    expect(state.status).toBe(200);
    expect(((await state.json()) as { chats: unknown }).chats).toBe(0);
    platform.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
    // nothing reached the simulator: no customer-message event
    expect(platform.lines.some((o) => o.type === 'customer-message')).toBe(false);
    expect(platform.lines).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        message: expect.stringContaining('fault status:503: POST on the channel interface'),
      }),
    );
    const recorded = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { response?: { status: number }; notes?: string[] });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.response?.status).toBe(503);
    expect(recorded[0]?.notes).toContain('fault: status:503');
  });

  it('switches its faults on and off through /_sim/faults, without a restart', async () => {
    const platform = spawnCli(['platform', '--port', '0', '--no-console', '--json']);
    const listening = await platform.next(listeningOf);
    const channelUrl = (listening.channels as Json[])[0]!.url as string;
    const faults = `${listening.url as string}/_sim/faults`;
    const say = async (id: string): Promise<number> =>
      (
        await fetch(channelUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            sender: { id: 'c-1' },
            message: { type: 'text', text: 'hi', id },
          }),
        })
      ).status;
    expect(await say('m-1')).toBe(200);
    const put = await fetch(faults, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'status:503', rate: 1, seed: 7 }),
    });
    expect(await put.json()).toEqual({
      plan: { fault: 'status:503', rate: 1, seed: 7 },
      before: null,
    });
    expect(await say('m-2')).toBe(503);
    // as curl -X DELETE -H 'content-type: application/json' sends it: no body
    const cleared = await fetch(faults, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(cleared.status).toBe(200);
    expect(await say('m-3')).toBe(200);
    platform.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
  });

  it('refuses --fault-rate without --fault with exit 2 and an example', async () => {
    const bad = spawnCli(['platform', '--port', '0', '--fault-rate', '0.3', '--no-console']);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain('no --fault is given');
    expect(bad.stderr()).toContain('Example: --fault status:503 --fault-rate 0.2 --seed 7');
    expect(bad.stderr()).not.toContain('    at ');
  });
});
