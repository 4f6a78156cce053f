// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { SvcApi } from '../../../src/widget/index.js';
import { install, page, sentEvents } from './setup.js';

describe('svc_api basics (spec 4.5)', () => {
  it('is defined on window with every method of spec 4.5', () => {
    const widget = install();
    const api = page().svc_api as SvcApi;
    expect(api).toBe(widget.api);
    expect(Object.keys(api).sort()).toEqual(
      [
        'open',
        'close',
        'chatMode',
        'getContactInfo',
        'getVisitorNumber',
        'setContactInfo',
        'setCustomData',
        'setRules',
        'setUserToken',
        'showProactiveInvitation',
        'startCall',
        'isCallbackEnabled',
        'sendOfflineMessage',
      ].sort(),
    );
  });

  it('chatMode() follows the agents (assumed shape: "online" | "offline")', () => {
    const widget = install({ online: false });
    expect(widget.api.chatMode()).toBe('offline');
    widget.agent.setOnline(true);
    expect(widget.api.chatMode()).toBe('online');
    expect(widget.calls.map((c) => c.result)).toEqual(['offline', 'online']);
  });

  it('setContactInfo sets what getContactInfo returns and sends it to the platform', async () => {
    const widget = install({ visitorId: 'v1' });
    expect(widget.api.getContactInfo()).toEqual({});
    widget.api.setContactInfo({ name: 'Ann', email: 'ann@shop.test', phone: '+15550100' });
    widget.api.setContactInfo({ description: 'VIP' });
    expect(widget.api.getContactInfo()).toEqual({
      name: 'Ann',
      email: 'ann@shop.test',
      phone: '+15550100',
      description: 'VIP',
    });
    await widget.flush();
    expect(sentEvents(widget)[0]).toEqual({
      type: 'contact_info',
      visitorId: 'v1',
      source: 'api',
      contact: { name: 'Ann', email: 'ann@shop.test', phone: '+15550100' },
    });
  });

  it('setContactInfo notes a field the spec does not list (a typo)', () => {
    const widget = install();
    widget.api.setContactInfo({ nmae: 'Ann', email: 'ann@shop.test' } as never);
    expect(widget.api.getContactInfo()).toEqual({ email: 'ann@shop.test' });
    expect(widget.issues).toEqual([
      {
        method: 'setContactInfo',
        code: 'unknown_field',
        message:
          'setContactInfo: unknown field "nmae" ignored (spec 4.5: name, email, phone, description)',
      },
    ]);
  });

  it('setContactInfo given a string, not an object, says what it takes', async () => {
    const widget = install();
    widget.api.setContactInfo('Ann' as never);
    await widget.flush();
    expect(widget.issues).toEqual([
      {
        method: 'setContactInfo',
        code: 'not_object',
        message:
          'setContactInfo takes an object {name, email, phone, description} of strings, got a string: ignored (spec 4.5)',
      },
    ]);
    expect(sentEvents(widget)).toEqual([]);
  });

  it('setUserToken that fails says why on the console; the result has no reason (spec 4.5)', () => {
    const widget = install();
    expect(widget.api.setUserToken(42)).toEqual({ result: 'fail', token: 42 });
    expect(widget.api.setUserToken('  ')).toEqual({ result: 'fail', token: '  ' });
    expect(widget.issues.map((i) => i.message)).toEqual([
      'setUserToken: the token must be a non-blank string, got a number: fail (spec 4.5)',
      'setUserToken: the token must be a non-blank string, got a blank string: fail (spec 4.5)',
    ]);
  });

  it('setContactInfo with no known field left notes it and sends nothing', async () => {
    const widget = install();
    widget.api.setContactInfo({ nmae: 'Ann' } as never);
    widget.api.setContactInfo({ phone: 5550100 } as never);
    await widget.flush();
    expect(widget.issues.map((i) => i.code)).toEqual(['unknown_field', 'not_string']);
    expect(sentEvents(widget)).toEqual([]); // no empty contact_info update
    expect(widget.api.getContactInfo()).toEqual({});
  });

  it('setContactInfo ignores fields that are not strings and notes it', () => {
    const widget = install();
    widget.api.setContactInfo({ name: 'Ann', phone: 5550100 } as never);
    expect(widget.api.getContactInfo()).toEqual({ name: 'Ann' });
    expect(widget.issues).toEqual([
      {
        method: 'setContactInfo',
        code: 'not_string',
        message: 'setContactInfo: ignored phone (spec 4.5: strings)',
      },
    ]);
  });

  it('getVisitorNumber answers asynchronously with cb(null, n) and keeps the number', async () => {
    const widget = install();
    const answers: unknown[][] = [];
    widget.api.getVisitorNumber((err, n) => answers.push([err, n]));
    expect(answers).toEqual([]); // asynchronous
    await widget.flush();
    widget.api.getVisitorNumber((err, n) => answers.push([err, n]));
    await widget.flush();
    expect(answers).toEqual([
      [null, 1],
      [null, 1],
    ]);
    expect(widget.calls[0]).toMatchObject({ method: 'getVisitorNumber', result: 1 });
  });

  it('notes a getVisitorNumber callback of one parameter: it would read the error as the number', async () => {
    const widget = install();
    const got: unknown[] = [];
    widget.api.getVisitorNumber((n: unknown) => got.push(n));
    await widget.flush();
    expect(got).toEqual([null]); // what the page shows as "visitor number null"
    expect(widget.issues).toEqual([
      expect.objectContaining({ method: 'getVisitorNumber', code: 'callback_arity' }),
    ]);
    widget.api.getVisitorNumber((_err, n) => got.push(n)); // the right one: no note
    await widget.flush();
    expect(widget.issues).toHaveLength(1);
  });

  it('setUserToken returns {result: ok, token} for a non-blank string', () => {
    const widget = install();
    expect(widget.api.setUserToken('u-7f3a9c')).toEqual({ result: 'ok', token: 'u-7f3a9c' });
    expect(widget.session.userToken).toBe('u-7f3a9c');
  });

  it.each([
    ['empty string', '', false],
    ['blank string', '   ', '   '],
    ['undefined', undefined, false],
    ['null', null, false],
    ['number', 42, 42],
  ])('setUserToken fails for %s with token = given value or false', (_label, token, expected) => {
    const widget = install();
    expect(widget.api.setUserToken(token)).toEqual({ result: 'fail', token: expected });
    expect(widget.session.userToken).toBeUndefined();
  });

  it('setRules replaces the rules; a non-object is ignored and noted', () => {
    const widget = install();
    widget.api.setRules({ rules: [{ name: 'a' }] });
    widget.api.setRules({ rules: [] });
    expect(widget.session.rules).toEqual({ rules: [] });
    widget.api.setRules('nope');
    expect(widget.session.rules).toEqual({ rules: [] });
    expect(widget.issues.map((i) => i.code)).toEqual(['invalid_argument']);
  });

  it('setRules notes rules that are not JSON', () => {
    const widget = install();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    widget.api.setRules(cyclic);
    expect(widget.session.rules).toBeUndefined();
    expect(widget.issues.map((i) => i.code)).toEqual(['not_json']);
  });

  it('records every call with method, args, result and time', () => {
    let t = 1000;
    const widget = install({ now: () => t++ });
    widget.api.setUserToken('tok');
    widget.api.close();
    expect(widget.calls).toEqual([
      { method: 'setUserToken', args: ['tok'], result: { result: 'ok', token: 'tok' }, time: 1000 },
      { method: 'close', args: [], result: undefined, time: 1001 },
    ]);
  });
});
