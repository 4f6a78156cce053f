import { describe, expect, it } from 'vitest';
import { SvcError } from '../../../src/errors.js';
import { suggestKinds } from '../../../src/contract/registry.js';
import {
  detectKind,
  listKinds,
  toJsonSchema,
  validate,
  validateAuto,
} from '../../../src/contract/index.js';

describe('public API of svc-cli/schemas', () => {
  it('lists every kind with interface, spec section, direction and description', () => {
    const kinds = listKinds();
    expect(kinds.length).toBe(63);
    expect(kinds.find((k) => k.name === 'bot.event.CLIENT_MESSAGE')).toEqual({
      name: 'bot.event.CLIENT_MESSAGE',
      interface: 'B',
      spec: '6.1',
      direction: 'platform -> bot',
      description: 'new customer message needing an answer',
    });
  });

  it('throws SVC_E_UNKNOWN_KIND with the closest names for an unknown kind', () => {
    let error: unknown;
    try {
      validate('channel.custmer.text', {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'SVC_E_UNKNOWN_KIND', category: 'input' });
    expect((error as SvcError).hint).toContain('"channel.customer.text"');
  });

  it.each([
    ['chat_finished', ['hook.chat_finished', 'hook.chat_finished.reply']],
    ['CLIENT_MESSAGE', ['bot.event.CLIENT_MESSAGE']],
    ['hook.chat_finised', ['hook.chat_finished']],
    ['bogus', []],
  ])('suggests for the unknown kind %s what it most likely means', (typed, meant) => {
    expect(suggestKinds(typed)).toEqual(meant);
  });

  it('says how to list the kinds when none is close', () => {
    expect(() => validate('bogus', {})).toThrow(
      expect.objectContaining({ hint: 'List the kinds with: svc-cli schema --list' }),
    );
  });

  it.each([
    [{ sender: { id: 'c' }, message: { type: 'text', text: 'x' } }, 'channel.customer.text'],
    [{ sender: { id: 'c' }, message: { type: 'typein' } }, 'channel.customer.typing'],
    [{ recipient: { id: 'c' }, message: { type: 'voice' } }, 'channel.agent.voice'],
    [{ event: 'AGENT_UNAVAILABLE' }, 'bot.event.AGENT_UNAVAILABLE'],
    [{ event_name: 'offline_messages' }, 'hook.offline_message'],
    [{ result: 'ok' }, 'channel.integrator.reply'],
    [{ error: { code: 'invalid_client', message: 'm' } }, 'bot.error'],
    [{ error: { code: 'x', message: 'm' } }, 'channel.integrator.reply'],
    [{ result: 'ok', crm_link: 'u' }, 'hook.chat_accepted.reply'],
    [{ result: 'fail', token: false }, 'widget.setUserToken.result'],
    [{ state: 'label' }, 'widget.callback.svc_onChangeState.args'],
    [{ fields: [] }, 'widget.setCustomData.args'],
    [1, 'channel.status'],
  ])('detects %j as %s', (value, kind) => {
    expect(detectKind(value)).toEqual({ kind });
  });

  it("says a page method's arguments are one object naming each, given them as the call passes them", () => {
    const [issue] = validate('widget.setUserToken.args', 'u-8f3a9c2e').errors;
    expect(issue?.rule).toBe(
      `must be an object: svc_api.setUserToken's arguments are checked as one object naming each (token), e.g. {"token": "u-8f3a9c2e"}`,
    );
  });

  it('says a conversation fixture is no payload, and which command runs it', () => {
    const [issue] = validateAuto({ version: 1, name: 'x', steps: [] }).errors;
    expect(issue?.rule).toBe(
      'could not tell the kind: it is a conversation fixture, not a payload: svc-cli replay <file> runs it',
    );
  });

  it("says a bot script is no payload, by its $schema or its list of rules (not widget.setRules' args)", () => {
    for (const value of [
      { $schema: '../../schemas/bot-script.schema.json', version: 1, rules: [] },
      { version: 1, rules: [{ match: { text: 'hi' }, reply: { text: 'hello' } }] },
    ])
      expect(validateAuto(value).errors[0]?.rule).toBe(
        'could not tell the kind: it is a bot script, not a payload: svc-cli bot-sim --script <file> follows it',
      );
    expect(validateAuto({ $schema: 'x/profile.schema.json', version: 1 }).errors[0]?.rule).toMatch(
      /it is a profile, not a payload/,
    );
    // the page's own rules object is still a payload
    expect(detectKind({ rules: { r1: {} } })).toEqual({ kind: 'widget.setRules.args' });
  });

  it("takes setUserToken's fail result with the given value, a string or not (spec 4.5)", () => {
    // the widget answers setUserToken(12345) with token 12345: its own result was refused
    for (const token of [12345, 'u-1', false])
      expect(validate('widget.setUserToken.result', { result: 'fail', token }).ok).toBe(true);
  });

  it("names 6.2 for a hook reply's own fields (it said 2.6, the events' shared objects)", () => {
    const result = validate('hook.chat_accepted.reply', {
      result: 'ok',
      custom_data: [{ title: 5, content: 'x' }],
      contact_info: { name: 'Ann', phone: 3 },
    });
    expect(result.errors.map((i) => `${i.path} ${i.spec}`)).toEqual([
      'custom_data[0].title 6.2',
      'contact_info.phone 6.2',
    ]);
  });

  it('explains what it cannot detect', () => {
    expect(detectKind({ result: 'FAILURE' })).toMatchObject({
      ambiguous: expect.arrayContaining(['hook.chat_finished.reply']) as unknown,
    });
    const result = validateAuto([1, 2]);
    expect(result).toMatchObject({ kind: 'unknown', ok: false });
    expect(result.errors[0]?.rule).toMatchInlineSnapshot(
      `"could not tell the kind: an array is no payload of the spec (pass --kind)"`,
    );
  });

  it('exports JSON Schema draft 2020-12 that accepts unknown fields and refuses __proto__', () => {
    const schema = toJsonSchema('channel.customer.text');
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.additionalProperties).toBeUndefined();
    expect(schema.propertyNames).toEqual({ not: { const: '__proto__' } });
  });
});
