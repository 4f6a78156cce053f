import { describe, expect, it } from 'vitest';
import { shapeAnswer, shapeBody, shapeSent } from '../../../src/platform/payload-forms.js';
import { formsOf } from '../../../src/platform/profile.js';

const NOW = 1_767_000_000_000;
const shape = (body: unknown, fields: Record<string, Record<string, number>>, exclusive = false) =>
  JSON.parse(shapeBody(JSON.stringify(body), { fields, exclusive }, NOW)) as unknown;

describe('shapeBody', () => {
  it.each([
    [
      'a numeric string id to a number',
      { chat_id: '7' },
      { chat_id: { number: 2 } },
      { chat_id: 7 },
    ],
    [
      'a number to a numeric string',
      { chat_id: 7 },
      { chat_id: { 'numeric string': 1 } },
      { chat_id: '7' },
    ],
    [
      'seconds to milliseconds in a time field',
      { message: { timestamp: 1_767_000_000 } },
      { 'message.timestamp': { 'number (ms timestamp)': 1 } },
      { message: { timestamp: 1_767_000_000_000 } },
    ],
    [
      'milliseconds to seconds',
      { ts: 1_767_000_000_123 },
      { ts: { 'number (s timestamp)': 1 } },
      { ts: 1_767_000_000 },
    ],
    [
      'a form already seen stays, even when another is commoner',
      { id: 'abc' },
      { id: { number: 9, string: 1 } },
      { id: 'abc' },
    ],
    [
      'array items by their [] path',
      { agents: [{ id: 3 }, { id: 4 }] },
      { 'agents[].id': { 'numeric string': 2 } },
      { agents: [{ id: '3' }, { id: '4' }] },
    ],
    [
      'an extra field of each form, its subtree built',
      { a: 1 },
      {
        visitor: { object: 1 },
        'visitor.lang': { string: 1 },
        'visitor.n': { 'numeric string': 1 },
        tags: { array: 1 },
        'tags[]': { number: 1 },
        sent_at: { 'number (s timestamp)': 1 },
        ok: { boolean: 1 },
        none: { null: 1 },
      },
      {
        a: 1,
        visitor: { lang: '', n: '0' },
        tags: [0],
        sent_at: 1_767_000_000,
        ok: false,
        none: null,
      },
    ],
    [
      'a number cannot become a non-numeric string: left as is',
      { id: 5 },
      { id: { string: 1 } },
      { id: 5 },
    ],
  ])('%s', (_what, body, fields, expected) => expect(shape(body, fields)).toEqual(expected));

  it('a string id wanted as a number gets a stable number of its own', () => {
    const fields = { id: { number: 1 } };
    const a = shape({ id: '8ccc37fa-4d13-4fe8-82c9-6cc9c068362c' }, fields) as { id: number };
    const b = shape({ id: '2ad281cb-6a6f-4dfd-85e3-2b1cf26c08bd' }, fields) as { id: number };
    expect(Number.isSafeInteger(a.id)).toBe(true);
    expect(a.id).not.toBe(b.id);
    expect(shape({ id: '8ccc37fa-4d13-4fe8-82c9-6cc9c068362c' }, fields)).toEqual(a);
  });

  it('an observed kind: a field it never showed is left out, at any depth', () => {
    const fields = { sender: { object: 1 }, 'sender.name': { string: 1 }, text: { string: 1 } };
    expect(
      shape(
        { sender: { name: 'A', photo: 'https://x/y.png' }, text: 'hi', extra: 1 },
        fields,
        true,
      ),
    ).toEqual({ sender: { name: 'A' }, text: 'hi' });
  });

  it('text that is not JSON, or a kind without forms, goes as is', () => {
    expect(shapeBody('not json', { fields: { a: { number: 1 } }, exclusive: true }, NOW)).toBe(
      'not json',
    );
    const clock = { epochSeconds: () => NOW / 1000 };
    expect(
      shapeSent({ forms: undefined, clock }, 'bot.event.CLIENT_MESSAGE', '{"chat_id":"1"}'),
    ).toBe('{"chat_id":"1"}');
    expect(
      shapeSent({ forms: { sent: {} }, clock }, 'bot.event.CLIENT_MESSAGE', '{"chat_id":"1"}'),
    ).toBe('{"chat_id":"1"}');
  });
});

describe('formsOf and shapeAnswer', () => {
  const forms = formsOf({
    'channel.customer.text': {
      observations: 3,
      direction: 'in',
      statuses: { '202': 3, '400': 1 },
      fields: { sender: { object: 3 } },
      answerFields: {},
    },
    'bot.event.CLIENT_MESSAGE': { observations: 0, statuses: { '200': 1 }, fields: {} },
    'bot.event.BOT_MESSAGE': { observations: 0, statuses: { '201': 1 }, fields: {} },
  })!;

  it('sorts kinds into sent and answered (the profile, the registry, else the name)', () => {
    expect(Object.keys(forms.sent!)).toEqual(['bot.event.CLIENT_MESSAGE']);
    expect(forms.answered).toEqual({
      'channel.customer.text': { fields: {}, exclusive: true, status: 202 },
      'bot.event.BOT_MESSAGE': { fields: {}, exclusive: false, status: 201 },
    });
  });

  it('a 2xx answer takes the learned status and shape; an error answer stays', () => {
    const record = { iface: 'channel' as const, kind: 'channel.customer.text' };
    expect(shapeAnswer(forms, { status: 200, body: { result: 'ok' }, record }, NOW)).toEqual({
      status: 202,
      body: {},
      record,
    });
    const refused = { status: 400, body: { error: { code: 'x', message: 'y' } }, record };
    expect(shapeAnswer(forms, refused, NOW)).toBe(refused);
    const other = { status: 200, body: { result: 'ok' }, record: { iface: 'channel' as const } };
    expect(shapeAnswer(forms, other, NOW)).toBe(other);
  });
});
