import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { countCodePoints, formatIssue, validate } from '../../../src/contract/index.js';
import {
  EMPTY_ARRAY_RULE,
  TWICE_ENCODED_RULE,
  idString,
  numberLike,
  positiveInt,
} from '../../../src/contract/rules.js';

const text = (sender: unknown, message: unknown) => ({ sender, message });
const media = (message: Record<string, unknown>) => ({ sender: { id: 'c1' }, message });
const file = { file: 'https://f.example.com/a', file_name: 'a', file_size: 1 };

/** Each rule: a passing and a failing value, and the path and severity the failure reports. */
const cases: {
  rule: string;
  kind: string;
  pass: unknown;
  fail: unknown;
  path: string;
  code: string;
  severity?: 'error' | 'warning';
}[] = [
  {
    rule: 'sender.id non-empty (spec 2.1)',
    kind: 'channel.customer.text',
    pass: text({ id: 'c' }, { type: 'text', text: 'x' }),
    fail: text({ id: '' }, { type: 'text', text: 'x' }),
    path: 'sender.id',
    code: 'empty',
  },
  {
    rule: 'sender.photo http(s) (spec 2.1)',
    kind: 'channel.customer.text',
    pass: text({ id: 'c', photo: 'http://a/b.png' }, { type: 'text', text: 'x' }),
    fail: text({ id: 'c', photo: 'ftp://a/b.png' }, { type: 'text', text: 'x' }),
    path: 'sender.photo',
    code: 'not_http_url',
  },
  {
    rule: 'file http(s) (spec 2.4)',
    kind: 'channel.customer.video',
    pass: media({ type: 'video', ...file }),
    fail: media({ type: 'video', ...file, file: 'ftp://x' }),
    path: 'message.file',
    code: 'not_http_url',
  },
  {
    rule: 'thumb http(s) (spec 2.4)',
    kind: 'channel.customer.photo',
    pass: media({ type: 'photo', ...file, thumb: 'https://t' }),
    fail: media({ type: 'photo', ...file, thumb: '/t.png' }),
    path: 'message.thumb',
    code: 'not_http_url',
  },
  {
    rule: 'text over 1000 code points is a warning (spec 2.1, 8)',
    kind: 'channel.customer.text',
    pass: text({ id: 'c' }, { type: 'text', text: '😀'.repeat(1000) }),
    fail: text({ id: 'c' }, { type: 'text', text: 'a'.repeat(1001) }),
    path: 'message.text',
    code: 'text_cut',
    severity: 'warning',
  },
  ...(['file_size', 'duration', 'width', 'height'] as const).map((field) => ({
    rule: `${field} positive integer (spec 2.4)`,
    kind: 'channel.customer.video',
    pass: media({ type: 'video', ...file, [field]: 3 }),
    fail: media({ type: 'video', ...file, [field]: 0 }),
    path: `message.${field}`,
    code: 'not_positive_integer',
  })),
  ...(['file', 'file_name', 'file_size'] as const).map((field) => {
    const without: Record<string, unknown> = { type: 'document', ...file };
    delete without[field];
    return {
      rule: `document requires ${field} (spec 2.4)`,
      kind: 'channel.customer.document',
      pass: media({ type: 'document', ...file }),
      fail: media(without),
      path: `message.${field}`,
      code: 'required',
    };
  }),
  {
    rule: 'location requires latitude (spec 2.4)',
    kind: 'channel.agent.location',
    pass: { recipient: { id: 'c' }, message: { type: 'location', latitude: 1, longitude: 2 } },
    fail: { recipient: { id: 'c' }, message: { type: 'location', longitude: 2 } },
    path: 'message.latitude',
    code: 'required',
  },
  ...(
    [
      ['latitude', 1_000_000],
      ['longitude', -181],
    ] as const
  ).map(([field, value]) => ({
    rule: `a ${field} outside the globe is a warning (spec 2.4: a real ${field})`,
    kind: 'channel.customer.location',
    pass: { sender: { id: 'c' }, message: { type: 'location', latitude: -90, longitude: 180 } },
    fail: {
      sender: { id: 'c' },
      message: { type: 'location', latitude: 52.5, longitude: 13.4, [field]: value },
    },
    path: `message.${field}`,
    code: 'out_of_range',
    severity: 'warning' as const,
  })),
  {
    rule: 'BUTTONS at most 3 (spec 2.5)',
    kind: 'bot.event.BOT_MESSAGE',
    pass: {
      event: 'BOT_MESSAGE',
      id: 'e',
      message: { type: 'BUTTONS', timestamp: 1, text: 't', buttons: [{ text: 'a', id: 1 }] },
    },
    fail: {
      event: 'BOT_MESSAGE',
      id: 'e',
      message: {
        type: 'BUTTONS',
        timestamp: 1,
        text: 't',
        buttons: [1, 2, 3, 4].map((id) => ({ text: 'b', id })),
      },
    },
    path: 'message.buttons',
    code: 'too_many',
  },
  {
    rule: 'typing types exactly typein/typeout (spec 2.3)',
    kind: 'channel.agent.typing',
    pass: { recipient: { id: 'c' }, message: { type: 'typeout' } },
    fail: { recipient: { id: 'c' }, message: { type: 'typing' } },
    path: 'message.type',
    code: 'invalid_value',
  },
  {
    rule: 'widget states (spec 3, 6.4)',
    kind: 'widget.callback.svc_onChangeState.args',
    pass: { state: 'chat/min' },
    fail: { state: 'min' },
    path: 'state',
    code: 'invalid_value',
  },
  {
    rule: 'setCustomData fields is an array of field objects (spec 4.5)',
    kind: 'widget.setCustomData.args',
    pass: { fields: [{ title: 't', content: 'c', key: 'k', link: 'https://x' }] },
    fail: { fields: [{ title: 3 }] },
    path: 'fields[0].title',
    code: 'invalid_type',
  },
  {
    rule: 'unknown fields are warnings',
    kind: 'channel.integrator.reply',
    pass: { result: 'ok' },
    fail: { result: 'ok', extra: true },
    path: 'extra',
    code: 'unknown_field',
    severity: 'warning',
  },
  {
    rule: 'an id as a number is type drift, a warning',
    kind: 'bot.event.AGENT_JOINED',
    pass: { event: 'AGENT_JOINED', id: 'e', client_id: 'c', chat_id: 'h' },
    fail: { event: 'AGENT_JOINED', id: 'e', client_id: 5, chat_id: 'h' },
    path: 'client_id',
    code: 'type_drift',
    severity: 'warning',
  },
];

const hookBase = {
  widget_id: 'w',
  visitor: { number: '1' },
  session: {},
  page: { url: 'https://x' },
  agent: { id: 1, name: 'a', email: 'e' },
};
const callEvent = (call: Record<string, unknown>) => ({
  event_name: 'call_event',
  ...hookBase,
  call: { type: 'incoming', phone: '1', ...call },
});
cases.push(
  {
    rule: 'call.status value set (spec 2.6)',
    kind: 'hook.call_event',
    pass: callEvent({ status: 'agent_connected' }),
    fail: callEvent({ status: 'ringing' }),
    path: 'call.status',
    code: 'invalid_value',
  },
  {
    rule: 'call.type value set (spec 2.6)',
    kind: 'hook.call_event',
    pass: callEvent({ status: 'start', type: 'outgoing' }),
    fail: callEvent({ status: 'start', type: 'video' }),
    path: 'call.type',
    code: 'invalid_value',
  },
  {
    rule: 'reason required when call status is error (spec 2.6)',
    kind: 'hook.call_event',
    pass: callEvent({ status: 'error', reason: 'busy' }),
    fail: callEvent({ status: 'error' }),
    path: 'call.reason',
    code: 'required',
  },
);

describe('rules encoded in the schemas', () => {
  it.each(cases)('$rule', ({ kind, pass, fail, path, code, severity = 'error' }) => {
    const passed = validate(kind, pass);
    expect(passed.errors).toEqual([]);
    expect(passed.warnings).toEqual([]);
    expect(passed.ok).toBe(true);
    const failed = validate(kind, fail);
    const issues = severity === 'error' ? failed.errors : failed.warnings;
    expect(issues.map((i) => [i.path, i.code, i.severity])).toEqual([[path, code, severity]]);
    expect(failed.ok).toBe(severity === 'warning');
  });

  it('names the path, the rule and the spec section', () => {
    const result = validate('channel.customer.text', {
      sender: { id: 'c' },
      message: { type: 'text' },
    });
    expect(result.errors.map(formatIssue)).toMatchInlineSnapshot(`
      [
        "message.text: required when type is "text" (spec 2.1)",
      ]
    `);
  });

  it('--strict turns warnings into errors', () => {
    const value = { result: 'ok', extra: 1 };
    expect(validate('channel.integrator.reply', value).ok).toBe(true);
    const strict = validate('channel.integrator.reply', value, { strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.errors.map((i) => [i.code, i.severity])).toEqual([['unknown_field', 'error']]);
    expect(strict.warnings).toEqual([]);
  });

  it('tolerates numeric strings from the platform, with a warning', () => {
    const result = validate('channel.agent.photo', {
      recipient: { id: 'c1' },
      message: { type: 'photo', ...file, file_size: '12' },
    });
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => [w.path, w.code])).toEqual([
      ['message.file_size', 'type_drift'],
    ]);
  });

  it('holds the party under test to the spec types: a numeric string is an error', () => {
    const result = validate(
      'channel.customer.photo',
      media({ type: 'photo', ...file, file_size: '12' }),
    );
    expect(result.ok).toBe(false);
    expect(result.warnings).toEqual([]);
    expect(result.errors.map((e) => [e.path, e.code, e.severity])).toEqual([
      ['message.file_size', 'type_drift', 'error'],
    ]);
  });

  it('accepts both spellings of offline_message and button ids as numbers without warnings', () => {
    const offline = {
      event_name: 'offline_messages',
      widget_id: 'w',
      visitor: { number: '1' },
      session: {},
      page: { url: 'u' },
      offline_message_id: 'o',
      message: 'm',
    };
    expect(validate('hook.offline_message', offline)).toMatchObject({ ok: true, warnings: [] });
    expect(
      validate('bot.event.BOT_MESSAGE', {
        event: 'BOT_MESSAGE',
        id: 'e',
        message: { type: 'TEXT', timestamp: '1700000000', text: 'x', button_id: 3 },
      }),
    ).toMatchObject({ ok: true, warnings: [] });
  });

  it('refuses __proto__ keys without polluting any prototype', () => {
    const value = JSON.parse('{"result":"ok","__proto__":{"polluted":true}}') as unknown;
    const result = validate('channel.integrator.reply', value);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => [e.path, e.code])).toEqual([['__proto__', 'forbidden_key']]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives a clear verdict for JSON nested 10,000 levels deep', () => {
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const result = validate('channel.integrator.reply', { result: 'ok', extra: deep });
    expect(result.errors.map((e) => e.code)).toEqual(['too_deep']);
    expect(result.errors[0]?.path).toBe(`extra${'.a'.repeat(64)}`);
  });

  it('reports 20,000 __proto__ keys each with its path', () => {
    const items = Array.from({ length: 20_000 }, () => '{"__proto__":0}').join(',');
    const value = JSON.parse(`{"result":"ok","x":[${items}]}`) as unknown;
    const issues = validate('channel.integrator.reply', value).errors;
    expect(issues.filter((e) => e.code === 'forbidden_key')).toHaveLength(20_000);
    expect(issues[0]?.path).toBe('x[19999].__proto__');
  });

  it('names where a nested __proto__ key is, in an object and in an array', () => {
    const value = JSON.parse(
      '{"sender":{"id":"c1","__proto__":{}},"message":{"type":"text","text":"hi"},"x":[1,{"__proto__":1}]}',
    ) as unknown;
    const result = validate('channel.customer.text', value);
    expect(result.errors.filter((e) => e.code === 'forbidden_key').map((e) => e.path)).toEqual([
      'x[1].__proto__',
      'sender.__proto__',
    ]);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(countCodePoints('😀a')).toBe(2);
    expect(countCodePoints('\ud800')).toBe(1);
  });
});

describe('fast paths', () => {
  // every fast-pathed builder, with each option that changes what it accepts
  const builders: [string, () => z.ZodType][] = [
    ['idString', () => idString('2.1')],
    ['idString non-empty', () => idString('2.1', { nonEmpty: true })],
    ['numberLike', () => numberLike('2.6')],
    ['numberLike integer', () => numberLike('2.6', { integer: true })],
    [
      'numberLike in a range',
      () => numberLike('2.4', { range: { min: -90, max: 90, rule: 'outside' } }),
    ],
    ['positiveInt', () => positiveInt('2.4')],
  ];
  const values: unknown[] = [
    'c1',
    '',
    ' ',
    '12',
    '-3',
    '1.5',
    '0',
    '007',
    0,
    -0,
    1,
    -1,
    1.5,
    -90,
    90,
    90.0001,
    -180.5,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 1,
    1e300,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    undefined,
    true,
    {},
    [],
    ['c1'],
  ];

  it.each(builders)('%s: gives what its schema without the fast path gives', (_, build) => {
    const fast = build();
    // clone() builds the same schema again, without the fast path
    const slow = fast.clone();
    expect(slow._zod.run === fast._zod.run).toBe(false);
    for (const value of values) {
      expect([value, fast.safeParse(value)]).toEqual([value, slow.safeParse(value)]);
    }
  });

  it('holds inside an object too, where zod calls the field itself', () => {
    const payload = { sender: { id: '' }, message: { type: 'text', id: 7, text: 'x' } };
    const result = validate('channel.customer.text', payload);
    expect(result.errors.map((e) => [e.path, e.code])).toEqual([
      ['sender.id', 'empty'],
      ['message.id', 'type_drift'],
    ]);
  });
});

describe('what a public PHP webhook library replies (chat_accepted)', () => {
  // its Response class: custom_data fields with a link, contact_info always written, and
  // PHP's json_encode turns an empty contact_info into []
  const reply = {
    result: 'ok',
    custom_data: [
      { title: 'Order', content: '#4711', link: 'https://crm.example.com/orders/4711', key: 'No' },
    ],
    enable_assign: true,
    crm_link: 'https://crm.example.com/contacts/42',
  };

  it('takes link and key in custom_data, as setCustomData has them (spec 6.2, 4.5)', () => {
    const result = validate('hook.chat_accepted.reply', reply);
    expect([...result.errors, ...result.warnings].map(formatIssue)).toEqual([]);
    const ftp = { ...reply, custom_data: [{ title: 'Order', link: 'ftp://crm/4711' }] };
    expect(validate('hook.chat_accepted.reply', ftp).errors.map((e) => [e.path, e.code])).toEqual([
      ['custom_data[0].link', 'not_http_url'],
    ]);
  });

  it('takes contact_info.description, as the contact structure of setContactInfo has it (spec 4.5)', () => {
    const contact = { name: 'Jane', phone: '+1 555 0100', description: 'VIP since 2019' };
    const result = validate('hook.chat_accepted.reply', { ...reply, contact_info: contact });
    expect([...result.errors, ...result.warnings].map(formatIssue)).toEqual([]);
    const typed = validate('hook.chat_accepted.reply', {
      ...reply,
      contact_info: { ...contact, description: 7 },
    });
    expect([...typed.errors, ...typed.warnings].map((i) => i.path)).toEqual([
      'contact_info.description',
    ]);
  });

  it('says an empty array for an object is PHP writing {} as [], and what to send', () => {
    const result = validate('hook.chat_accepted.reply', { ...reply, contact_info: [] });
    expect(result.errors.map(formatIssue)).toEqual([
      `contact_info: ${EMPTY_ARRAY_RULE} (spec 6.2)`,
    ]);
    // any other non-object still reads as before
    expect(
      validate('hook.chat_accepted.reply', { ...reply, contact_info: ['Jane'] }).errors.map(
        formatIssue,
      ),
    ).toEqual(['contact_info: must be an object (spec 6.2)']);
  });

  it('says a JSON string holding an object was encoded twice, at the root too', () => {
    const twice = JSON.stringify({ result: 'ok' });
    expect(validate('hook.chat_accepted.reply', twice).errors.map(formatIssue)).toEqual([
      `(root): ${TWICE_ENCODED_RULE} (spec 6.2)`,
    ]);
    expect(
      validate('hook.chat_accepted.reply', {
        ...reply,
        contact_info: JSON.stringify({ name: 'Jane', phone: '+1 555 0100' }),
      }).errors.map(formatIssue),
    ).toEqual([`contact_info: ${TWICE_ENCODED_RULE} (spec 6.2)`]);
    // a plain string is not an object, and says no more
    expect(validate('hook.chat_accepted.reply', 'ok').errors.map(formatIssue)).toEqual([
      '(root): must be an object (spec 6.2)',
    ]);
  });
});
