// The STRONG suite: the same bridge, tested on what the contract says the platform does (spec
// sections as in svc-cli's docs/CONTRACT.md). It kills every simulator mutant of the chat
// channel; the bot and hook mutants survive it, as the bridge uses neither interface.
import { describe, expect, it } from 'vitest';
import { base, useShop } from './harness.mjs';

const shop = useShop();
const answer = (text) => shop.agentSays('c-1', { type: 'text', text });
const customerTexts = () =>
  shop.sim.events.filter((e) => e.type === 'customer-message').map((e) => e.text);

describe('bridge (strong suite): sending', () => {
  it('a customer message is taken and reaches the agent as written (spec 4.1)', async () => {
    expect(await shop.bridge.send('c-1', 'hello')).toEqual({ ok: true, status: 200 });
    expect(customerTexts()).toEqual(['hello']);
  });

  it('1000 characters arrive whole, 1001 are cut to 1000 (spec 8)', async () => {
    await shop.bridge.send('c-1', 'a'.repeat(1000));
    await shop.bridge.send('c-1', 'b'.repeat(1001));
    expect(customerTexts().map((t) => t.length)).toEqual([1000, 1000]);
  });

  it('a wrong channel URL is refused 404 (spec 4.1, 7.1)', async () => {
    const wrong = `${base}/example-random-string-0000000001/no-such-channel`;
    expect(await shop.bridge.send('c-1', 'hello', wrong)).toEqual({ ok: false, status: 404 });
  });

  it('a message without a customer id is refused, not delivered (spec 7.1)', async () => {
    expect((await shop.bridge.send('', 'hello')).ok).toBe(false);
    expect(customerTexts()).toEqual([]);
  });

  it('the chat button follows the agents: status 1, then 0 (spec 4.1)', async () => {
    expect(await shop.bridge.agentsOnline()).toBe(true);
    shop.sim.setAgentsOnline(false);
    expect(await shop.bridge.agentsOnline()).toBe(false);
  });
});

describe('bridge (strong suite): receiving', () => {
  it('an agent answer comes once, as spec 2.2 shapes it, and is shown', async () => {
    await shop.bridge.send('c-1', 'hello');
    await answer('Hi, how can I help?');
    expect(shop.bridge.inbox('c-1')).toMatchObject([
      { text: 'Hi, how can I help?', agent: 'Alice Agent' },
    ]);
    expect(shop.bridge.requests).toHaveLength(1);
    const [{ body, framing }] = shop.bridge.requests;
    expect(body).toMatchObject({
      sender: { name: 'Alice Agent', photo: expect.any(String) },
      recipient: { id: 'c-1' },
      message: { type: 'text', id: expect.any(String) },
    });
    // the channel is set up without chunked: a Content-Length body (spec 4.2)
    expect(framing).toBe('length');
  });

  it('the agent typing is shown (spec 2.3)', async () => {
    await shop.bridge.send('c-1', 'hello');
    await shop.agentSays('c-1', { type: 'typein' });
    expect(shop.bridge.isTyping('c-1')).toBe(true);
  });

  it('two answers are shown in the order the agent wrote them', async () => {
    await shop.bridge.send('c-1', 'hello');
    const says = (text) =>
      shop.sim.sendAgentMessage({ customerId: 'c-1', message: { type: 'text', text } });
    await shop.run(Promise.all([says('first'), says('second')]));
    expect(shop.bridge.inbox('c-1').map((m) => m.text)).toEqual(['first', 'second']);
  });
});

describe('bridge (strong suite): our endpoint fails (spec 8)', () => {
  it('down once: the message comes again 3 s later and is shown once', async () => {
    await shop.bridge.send('c-1', 'hello');
    shop.bridge.failNext(1);
    await answer('again');
    // when the platform sent each attempt, in protocol time from the first (its event log)
    const offsets = shop.sim.events
      .filter((e) => e.type === 'delivery-attempt' && e.target === 'integrator')
      .map((e) => e.offsetMs);
    expect(offsets).toHaveLength(2);
    expect(offsets).toEqual([0, 3000]);
    expect(shop.bridge.inbox('c-1').map((m) => m.text)).toEqual(['again']);
    // spec 8: the redelivery is the same message, its id included (how the bridge shows it once)
    const ids = shop.bridge.requests
      .filter((r) => r.body.message?.text === 'again')
      .map((r) => r.body.message.id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
  });

  it('down twice: the third attempt gets through', async () => {
    await shop.bridge.send('c-1', 'hello');
    shop.bridge.failNext(2);
    await answer('third time');
    expect(shop.bridge.inbox('c-1').map((m) => m.text)).toEqual(['third time']);
  });

  it('down for good: three attempts, then the platform gives up', async () => {
    await shop.bridge.send('c-1', 'hello');
    shop.bridge.failNext(99);
    const result = await answer('lost');
    expect(result.result).toBe('failed');
    expect(shop.bridge.requests).toHaveLength(3);
  });
});
