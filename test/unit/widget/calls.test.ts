// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { OFFLINE_ERRORS, REASONS, type ReasonResult } from '../../../src/widget/index.js';
import { defineCallback, here, install, sentEvents } from './setup.js';

async function askCallback(widget: ReturnType<typeof install>): Promise<ReasonResult> {
  let answer: ReasonResult | undefined;
  widget.api.isCallbackEnabled((result) => {
    answer = result;
  });
  expect(answer).toBeUndefined(); // answered asynchronously
  await widget.flush();
  return answer!;
}

describe('isCallbackEnabled (spec 4.5)', () => {
  it('answers {result: ok} when calls are available', async () => {
    expect(await askCallback(install())).toEqual({ result: 'ok' });
  });

  it('answers "Callback disabled" when disabled in the admin panel', async () => {
    expect(await askCallback(install({ callback: 'disabled' }))).toEqual({
      result: 'fail',
      reason: 'Callback disabled',
    });
  });

  it('answers "Callback unavaiable" (spelled so) when unavailable for other reasons', async () => {
    expect(await askCallback(install({ callback: 'unavailable' }))).toEqual({
      result: 'fail',
      reason: 'Callback unavaiable',
    });
  });

  it('answers "Callback unavaiable" while a call is in progress and with no balance', async () => {
    const widget = install();
    widget.api.startCall('+15550100');
    expect(await askCallback(widget)).toEqual({
      result: 'fail',
      reason: REASONS.callbackUnavailable,
    });
    expect(await askCallback(install({ callBalance: 0 }))).toEqual({
      result: 'fail',
      reason: REASONS.callbackUnavailable,
    });
  });

  it('follows the driver: disable, unavailable, enable', async () => {
    const widget = install();
    widget.callback.disable();
    expect((await askCallback(widget)).result).toBe('fail');
    widget.callback.unavailable();
    expect(await askCallback(widget)).toMatchObject({ reason: 'Callback unavaiable' });
    widget.callback.enable();
    expect(await askCallback(widget)).toEqual({ result: 'ok' });
  });

  it('notes a missing callback function', () => {
    const widget = install();
    widget.api.isCallbackEnabled(undefined as never);
    expect(widget.issues.map((i) => i.code)).toEqual(['invalid_argument']);
  });
});

describe('startCall (spec 4.5) and call callbacks (spec 6.4)', () => {
  it('returns {result: ok}, fires svc_onCallStart and sends start_call', async () => {
    const widget = install({ visitorId: 'v1' });
    const started = defineCallback('svc_onCallStart');
    expect(widget.api.startCall('+1 (555) 010-0100')).toEqual({ result: 'ok' });
    expect(started).toEqual([[]]);
    await widget.flush();
    expect(sentEvents(widget)).toEqual([
      { type: 'start_call', visitorId: 'v1', phone: '+1 (555) 010-0100', page: here },
    ]);
  });

  it.each([
    ['a malformed number', {}, 'call me', REASONS.invalidPhone],
    ['too few digits', {}, '12345', REASONS.invalidPhone],
    ['a non-string', {}, 5550100, REASONS.phoneNotString],
    ['an object', {}, { phone: '+15550100' }, REASONS.phoneNotString],
    ['callback disabled', { callback: 'disabled' as const }, '+15550100', 'Callback disabled'],
    [
      'callback unavailable',
      { callback: 'unavailable' as const },
      '+15550100',
      'Callback unavaiable',
    ],
    ['no call balance', { callBalance: 0 }, '+15550100', REASONS.noCallBalance],
  ])('fails with a reason for %s', (_label, options, phone, reason) => {
    const widget = install(options);
    const started = defineCallback('svc_onCallStart');
    expect(widget.api.startCall(phone as string)).toEqual({ result: 'fail', reason });
    expect(started).toEqual([]);
    // the page's input is noted (the real script says nothing); the platform's state is not:
    // the page asks isCallbackEnabled about it
    const input = reason === REASONS.invalidPhone || reason === REASONS.phoneNotString;
    expect(widget.issues).toEqual(
      input
        ? [
            {
              method: 'startCall',
              code: 'refused',
              message: `startCall: fail, ${reason} (spec 4.5)`,
            },
          ]
        : [],
    );
  });

  it("says a refused call in the page's console", () => {
    const warn = vi.fn();
    const widget = install({ console: { warn, error: vi.fn() } });
    widget.api.startCall('call me');
    widget.api.setCustomData('not an array');
    widget.api.sendOfflineMessage({ message: 'hi' });
    expect(warn.mock.calls.map(([line]) => line as string)).toEqual([
      `svc_api double: startCall: fail, ${REASONS.invalidPhone} (spec 4.5)`,
      `svc_api double: setCustomData: fail, ${REASONS.customDataNotArray} (spec 4.5)`,
      `svc_api double: sendOfflineMessage: fail, ${OFFLINE_ERRORS.contactRequired} (spec 4.5)`,
    ]);
  });

  it('fails with "Callback unavaiable" while a call is already started', () => {
    const widget = install();
    widget.api.startCall('+15550100');
    expect(widget.api.startCall('+15550100')).toEqual({
      result: 'fail',
      reason: 'Callback unavaiable',
    });
  });

  it('call.end() fires svc_onCallEnd({result: ok}) after connect', () => {
    const widget = install();
    const ended = defineCallback('svc_onCallEnd');
    widget.api.startCall('+15550100');
    widget.call.connect();
    expect(widget.session.callStatus).toBe('client_connected');
    widget.call.end();
    expect(ended).toEqual([[{ result: 'ok' }]]);
    expect(widget.api.startCall('+15550100')).toEqual({ result: 'ok' }); // free again
  });

  it('call.end({result: fail, reason}) fires svc_onCallEnd with the reason', () => {
    const widget = install();
    const ended = defineCallback('svc_onCallEnd');
    widget.api.startCall('+15550100');
    widget.call.end({ result: 'fail', reason: 'no answer' });
    expect(ended).toEqual([[{ result: 'fail', reason: 'no answer' }]]);
    expect(widget.session.callStatus).toBe('error');
  });

  it('call helpers throw when no call is in progress (a bug in the test)', () => {
    const widget = install();
    expect(() => widget.call.connect()).toThrow('call.connect: no call in progress');
    expect(() => widget.call.end()).toThrow('call.end: no call in progress');
  });

  it('call.setBalance changes the balance startCall checks', () => {
    const widget = install();
    widget.call.setBalance(0);
    expect(widget.api.startCall('+15550100')).toEqual({
      result: 'fail',
      reason: REASONS.noCallBalance,
    });
    widget.call.setBalance(5);
    expect(widget.api.startCall('+15550100')).toEqual({ result: 'ok' });
  });
});
