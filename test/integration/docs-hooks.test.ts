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
      client_id: expect.stringMatching(/^client-/) as string,
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
