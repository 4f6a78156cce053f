/**
 * The docs profile's hook events (public Webhooks page): client_updated when a visitor's
 * data changes, client_attribute_updated when the page calls setClientAttributes; none of
 * them under the spec.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { createPlatform } from '../../src/platform/index.js';
import { DOCS_PROFILE, settingsOf } from '../../src/conversation/record/profile.js';
import { closePeers, json, startPeer } from '../helpers/broken-peers.js';
import { validateAuto } from '../../src/contract/index.js';
import { createHookTarget, type HookTargetEvent } from '../../src/roles/hooks/index.js';
import { postJson } from '../../src/http/client.js';

afterEach(() => closePeers());

async function session(events: 'spec' | 'docs') {
  const bodies: Array<Record<string, unknown>> = [];
  const url = await startPeer((_req, res, body) => {
    bodies.push(JSON.parse(body) as Record<string, unknown>);
    json(res, 200, { result: 'ok' });
  });
  const clock = createVirtualClock();
  const platform = createPlatform({
    clock,
    hooks: { url, events },
    channels: [{ id: 'site', kind: 'widget' }],
  });
  const page = (event: Record<string, unknown>) =>
    platform.core.request('/_sim/widget/events?channel=site', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitorId: 'v-1', ...event }),
    });
  // attributes before any chat, then a chat, then the visitor's data and attributes change
  expect((await page({ type: 'client_attributes', attributes: { plan: 'free' } })).status).toBe(
    200,
  );
  await page({ type: 'visitor_message', text: 'Hi', first: true });
  await page({ type: 'contact_info', source: 'api', contact: { name: 'Ann' } });
  await page({ type: 'client_attributes', attributes: { plan: 'pro', seats: 3 } });
  await clock.settle();
  await platform.close();
  return bodies;
}

describe('hook events of the docs profile', () => {
  it('client_updated with client_id, client_attribute_updated with the attributes map', async () => {
    const bodies = await session('docs');
    const names = bodies.map((b) => b.event_name);
    expect(names.filter((n) => n === 'chat_updated')).toHaveLength(1);
    const updated = bodies.find((b) => b.event_name === 'client_updated')!;
    expect(updated).toMatchObject({
      widget_id: 'site',
      client_id: '501', // digits (docs/FIDELITY.md 2.5): visitor 1
      visitor: { name: 'Ann', number: '1' },
    });
    expect(updated).not.toHaveProperty('chat_id');
    const attributes = bodies.filter((b) => b.event_name === 'client_attribute_updated');
    expect(attributes.map((b) => b.attributes)).toEqual([
      { plan: 'free' },
      { plan: 'pro', seats: 3 },
    ]);
    expect(attributes[1]).toMatchObject({ client_id: updated.client_id, widget_id: 'site' });
  });

  it('validate and hook-target know both kinds: what the simulator sends passes', async () => {
    const bodies = (await session('docs')).filter((b) =>
      ['client_updated', 'client_attribute_updated'].includes(String(b.event_name)),
    );
    expect(bodies.map((b) => validateAuto(b)).map((r) => [r.kind, r.ok])).toEqual(
      bodies.map((b) => [`hook.${String(b.event_name)}`, true]),
    );
    const received: HookTargetEvent[] = [];
    const target = await createHookTarget({ port: 0, onEvent: (e) => received.push(e) });
    try {
      for (const body of bodies)
        await postJson({
          url: target.url,
          body: JSON.stringify(body),
          timeoutMs: 5000,
          clock: createVirtualClock(),
        });
    } finally {
      await target.close();
    }
    expect(
      received
        .filter((e) => e.type === 'hook-received')
        .map((e) => e.type === 'hook-received' && [e.kind, e.verdict.ok, e.reply]),
    ).toEqual([
      ['hook.client_attribute_updated', true, { status: 200, body: { result: 'ok' } }],
      ['hook.client_updated', true, { status: 200, body: { result: 'ok' } }],
      ['hook.client_attribute_updated', true, { status: 200, body: { result: 'ok' } }],
    ]);
  });

  it('under the spec: neither is sent', async () => {
    const names = (await session('spec')).map((b) => b.event_name);
    expect(names).not.toContain('client_updated');
    expect(names).not.toContain('client_attribute_updated');
    expect(names).toContain('chat_updated');
  });

  it('the docs profile turns them on', () => {
    expect(settingsOf(DOCS_PROFILE).hookEvents).toBe('docs');
    expect(settingsOf({ version: 1, name: 's' }).hookEvents).toBe('spec');
  });
});
