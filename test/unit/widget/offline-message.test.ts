// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { OFFLINE_ERRORS } from '../../../src/widget/index.js';
import { offlineMessageOf } from '../../../src/widget/api.js';
import { here, install, sentEvents } from './setup.js';

const valid = {
  name: 'Ann',
  email: 'ann@shop.test',
  phone: '+15550100',
  description: 'from the pricing page',
  message: 'Please call me back',
};

describe('sendOfflineMessage (spec 4.5, 7.3)', () => {
  it('returns {result: ok} for valid parameters while chat is offline and sends it', async () => {
    const widget = install({ online: false, visitorId: 'v1' });
    expect(widget.api.sendOfflineMessage(valid)).toEqual({ result: 'ok' });
    await widget.flush();
    expect(sentEvents(widget)).toEqual([
      { type: 'offline_message', visitorId: 'v1', message: valid, page: here },
    ]);
  });

  it("takes the spec's five strings in order as well as one object (newcomer pass)", async () => {
    const widget = install({ online: false, visitorId: 'v1' });
    const { name, email, phone, description, message } = valid;
    expect(widget.api.sendOfflineMessage(name, email, phone, description, message)).toEqual({
      result: 'ok',
    });
    // a wrapper forwarding (message, undefined) still passes one object
    expect(widget.api.sendOfflineMessage(valid, ...([undefined] as unknown as []))).toEqual({
      result: 'ok',
    });
    expect(widget.api.sendOfflineMessage('Ann', 'ann@shop.test')).toEqual({
      result: 'fail',
      error: OFFLINE_ERRORS.messageRequired,
    });
    await widget.flush();
    expect(sentEvents(widget)).toEqual([
      { type: 'offline_message', visitorId: 'v1', message: valid, page: here },
      { type: 'offline_message', visitorId: 'v1', message: valid, page: here },
    ]);
  });

  it('accepts a phone alone as the way to answer', () => {
    const widget = install({ online: false });
    expect(widget.api.sendOfflineMessage({ phone: '+15550100', message: 'hi' })).toEqual({
      result: 'ok',
    });
  });

  it.each([
    ['not an object', 42, OFFLINE_ERRORS.notObject],
    ['a non-string field', { ...valid, phone: 5550100 }, 'phone must be a string'],
    ['no message', { ...valid, message: undefined }, OFFLINE_ERRORS.messageRequired],
    ['a blank message', { ...valid, message: '  ' }, OFFLINE_ERRORS.messageRequired],
    ['no email nor phone', { message: 'hi' }, OFFLINE_ERRORS.contactRequired],
    ['an invalid email', { ...valid, email: 'ann@' }, OFFLINE_ERRORS.invalidEmail],
    ['an invalid phone', { ...valid, phone: 'abc' }, OFFLINE_ERRORS.invalidPhone],
  ])('fails with {result: fail, error} for %s', (_label, message, error) => {
    const widget = install({ online: false });
    expect(widget.api.sendOfflineMessage(message as never)).toEqual({ result: 'fail', error });
    expect(sentEvents(widget)).toEqual([]);
  });

  it('is impossible while agents are online (assumption: use the chat)', () => {
    const widget = install({ online: true });
    expect(widget.api.sendOfflineMessage(valid)).toEqual({
      result: 'fail',
      error: 'agents are online: start a chat instead of an offline message',
    });
    widget.agent.setOnline(false);
    expect(widget.api.sendOfflineMessage(valid)).toEqual({ result: 'ok' });
  });
});

describe("offlineMessageOf: sendOfflineMessage's arguments as one message", () => {
  it("names the five strings in the spec's order, leaving out those not given", () => {
    expect(offlineMessageOf(['Ann', 'ann@shop.test', undefined, undefined, 'hi'])).toEqual({
      name: 'Ann',
      email: 'ann@shop.test',
      message: 'hi',
    });
  });

  it('takes one object as it is, and anything else for the check to refuse', () => {
    expect(offlineMessageOf([valid])).toBe(valid);
    expect(offlineMessageOf([42])).toBe(42);
    expect(offlineMessageOf([])).toBeUndefined();
  });
});
