/**
 * `chat --channel-url` at an svc-cli platform that delivers the agent's replies nowhere (no
 * --integrator-url) or elsewhere: the chat says so at once instead of waiting for replies.
 */
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { platformDeliveryWarning } from '../../src/cli/commands/chat-peer-check.js';
import { startPlatform } from '../helpers/platform.js';
import { startFakePlatform } from '../helpers/fake-platform.js';

const clock = createClock();
const chatListener = 'http://127.0.0.1:41234';

describe('chat --channel-url: does the platform deliver the replies to this chat', () => {
  it('an svc-cli platform without an integrator URL: warned, with the flag to add', async () => {
    const p = await startPlatform({ clock, channels: [{ id: 'shop' }] });
    const warning = await platformDeliveryWarning(p.channelUrl, chatListener, clock);
    expect(warning).toContain('has no integrator URL for channel shop');
    expect(warning).toContain(`--integrator-url ${chatListener}`);
  });

  it('chat at a random port: the warning asks for a fixed --port, as that URL changes on restart', async () => {
    const p = await startPlatform({ clock, channels: [{ id: 'shop' }] });
    const warning = await platformDeliveryWarning(p.channelUrl, chatListener, clock, true);
    expect(warning).toContain('has no integrator URL for channel shop');
    expect(warning).toContain('svc-cli chat --port 9000');
    expect(warning).toContain('--integrator-url http://127.0.0.1:9000');
    expect(warning).toContain("this chat's port (41234) is picked at random");
  });

  it('delivering to another integrator: warned; delivering to the chat: nothing', async () => {
    const elsewhere = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: 'http://127.0.0.1:9000/agent-messages' }],
    });
    expect(await platformDeliveryWarning(elsewhere.channelUrl, chatListener, clock)).toContain(
      'to http://127.0.0.1:9000/agent-messages, not to this chat',
    );
    const here = await startPlatform({
      clock,
      channels: [{ id: 'c2', integratorUrl: chatListener }],
    });
    expect(await platformDeliveryWarning(here.channelUrl, chatListener, clock)).toBeUndefined();
  });

  it('a channel id or random string the platform does not serve: warned, with the URL it serves', async () => {
    const p = await startPlatform({
      clock,
      channels: [{ id: 'shop', integratorUrl: chatListener }],
    });
    const base = p.channelUrl.slice(0, p.channelUrl.lastIndexOf('/'));
    expect(await platformDeliveryWarning(`${base}/nope`, chatListener, clock)).toBe(
      `the svc-cli platform at ${new URL(p.channelUrl).origin} has no channel "nope": every message would be answered 404; its channel URL is ${p.channelUrl}`,
    );
    const origin = new URL(p.channelUrl).origin;
    expect(
      await platformDeliveryWarning(`${origin}/not-the-secret/shop`, chatListener, clock),
    ).toBe(
      `the svc-cli platform at ${origin} serves this channel at another random string: every message would be answered 404; its channel URL is ${p.channelUrl}`,
    );
    // without --show-secrets, chat hides the random string, as its banner does
    const hidden = (url: string): string => url.replace(/\/[^/]+\/shop$/, '/***/shop');
    expect(
      await platformDeliveryWarning(`${origin}/x/shop`, chatListener, clock, false, hidden),
    ).toContain(
      `its channel URL is ${origin}/***/shop (the platform's banner prints it whole, as --show-secrets does here)`,
    );
    // the URL as served, with a trailing slash too: nothing to say
    expect(await platformDeliveryWarning(`${p.channelUrl}/`, chatListener, clock)).toBeUndefined();
  });

  it('another platform (no /_sim/state): nothing', async () => {
    const other = await startFakePlatform();
    try {
      expect(await platformDeliveryWarning(other.channelUrl, chatListener, clock)).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
