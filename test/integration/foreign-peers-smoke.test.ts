/**
 * The foreign peers (test/peers/) start, answer as their headers say, and keep their state
 * across a restart. Skipped with one line when python3, python3-flask or php-cli is missing.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  NO_FLASK,
  NO_PHP,
  NO_PYTHON,
  hasFlask,
  hasPhp,
  hasPython,
  removeForeignState,
  startForeignPeer,
  type ForeignPeer,
} from '../helpers/foreign-peer.js';

const running: ForeignPeer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((peer) => peer.stop()));
});
afterAll(removeForeignState);

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const accepted = { event_name: 'chat_accepted', chat_id: 7, visitor: { name: 'Ann' } };

describe.skipIf(!hasFlask)(
  `the Flask hook receiver${hasFlask ? '' : ` (skipped: ${NO_FLASK})`}`,
  () => {
    it('hands out one CRM link per chat, also after a restart', async () => {
      const first = await startForeignPeer({ kind: 'flask-hooks' });
      running.push(first);
      const before = JSON.parse((await post(first.url, accepted)).text) as { crm_link: string };
      await first.stop();
      const again = await startForeignPeer({ kind: 'flask-hooks', stateDir: first.stateDir });
      running.push(again);
      const after = JSON.parse((await post(again.url, accepted)).text) as { crm_link: string };
      expect(after.crm_link).toBe(before.crm_link);
    });

    it('answers 503 twice when cold, and 500 on the event it crashes on', async () => {
      const cold = await startForeignPeer({ kind: 'flask-hooks', mode: 'cold' });
      running.push(cold);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post(cold.url, accepted)).status);
      expect(statuses).toEqual([503, 503, 200]);
      const crashing = await startForeignPeer({ kind: 'flask-hooks', mode: 'crash:chat_updated' });
      running.push(crashing);
      expect((await post(crashing.url, { ...accepted, event_name: 'chat_updated' })).status).toBe(
        500,
      );
      expect((await post(crashing.url, accepted)).status).toBe(200);
    });
  },
);

describe.skipIf(!hasPhp)(`the PHP receiver${hasPhp ? '' : ` (skipped: ${NO_PHP})`}`, () => {
  it('answers {} or {"data": ...} and keeps its state file across restarts', async () => {
    const first = await startForeignPeer({ kind: 'php-hooks' });
    running.push(first);
    expect((await post(first.url, { ...accepted, event_name: 'chat_updated' })).text).toBe('{}');
    await first.stop();
    const data = await startForeignPeer({
      kind: 'php-hooks',
      mode: 'data',
      stateDir: first.stateDir,
    });
    running.push(data);
    expect(JSON.parse((await post(data.url, accepted)).text)).toEqual({
      data: {
        result: 'ok',
        crm_link: 'https://crm.example.test/php/7',
        custom_data: [{ title: 'Visitor', content: 'Ann' }],
      },
    });
  });

  it('answers 500 on the event it crashes on', async () => {
    const crashing = await startForeignPeer({ kind: 'php-hooks', mode: 'crash:chat_finished' });
    running.push(crashing);
    expect((await post(crashing.url, { ...accepted, event_name: 'chat_finished' })).status).toBe(
      500,
    );
  });
});

describe('the slow Node receiver', () => {
  it('answers {"data": ...} after its delay and keeps its state file across restarts', async () => {
    const first = await startForeignPeer({ kind: 'node-slow-hooks', env: { PEER_SLOW_MS: '50' } });
    running.push(first);
    expect(JSON.parse((await post(first.url, accepted)).text)).toEqual({
      data: { result: 'ok', seen: 1 },
    });
    await first.stop();
    const again = await startForeignPeer({
      kind: 'node-slow-hooks',
      stateDir: first.stateDir,
      env: { PEER_SLOW_MS: '50' },
    });
    running.push(again);
    expect(JSON.parse((await post(again.url, accepted)).text)).toEqual({
      data: { result: 'ok', seen: 2 },
    });
  });
});

describe.skipIf(!hasPython)(
  `the Python standard-library integrator${hasPython ? '' : ` (skipped: ${NO_PYTHON})`}`,
  () => {
    const agentMessage = {
      sender: { name: 'Alice' },
      recipient: { id: 'c-1' },
      message: { type: 'text', id: 'm-1', text: 'Hello' },
    };

    it('answers 503 twice when cold, then {"result":"ok"}; an error reply in error mode', async () => {
      const cold = await startForeignPeer({ kind: 'python-integrator', mode: 'cold' });
      running.push(cold);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await post(`${cold.url}/ch`, agentMessage)).status);
      expect(answers).toEqual([503, 503, 200]);
      await cold.stop();
      const refusing = await startForeignPeer({
        kind: 'python-integrator',
        mode: 'error:blocked',
        stateDir: cold.stateDir,
      });
      running.push(refusing);
      const refused = await post(`${refusing.url}/ch`, agentMessage);
      expect(refused.status).toBe(200);
      expect(JSON.parse(refused.text)).toEqual({
        error: { code: 'blocked', message: 'customer unreachable' },
      });
    });
  },
);
