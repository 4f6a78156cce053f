import { describe, expect, it } from 'vitest';
import { isPlainCustomerText } from '../../../src/contract/channel.js';
import { getKind, validate } from '../../../src/contract/validate.js';

const ABSENT = Symbol('absent');
type Choice = unknown;

/** Every combination of the given field choices (ABSENT leaves the field out). */
function objects(fields: Record<string, readonly Choice[]>): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [key, choices] of Object.entries(fields)) {
    out = out.flatMap((base) =>
      choices.map((choice) => (choice === ABSENT ? { ...base } : { ...base, [key]: choice })),
    );
  }
  return out;
}

const senders = [
  ...objects({
    id: ['c-1', '', 42, null, ABSENT],
    name: ['Ann', null, 5, ABSENT],
    photo: ['https://x.test/a.png', ABSENT],
  }),
  { id: 'c-1', unknown: 'x' },
  { id: 'c-1', phone: '+1', invite: 'i', email: 'a@b.c', name: '' },
  { id: 'x'.repeat(300), photo: 'ftp://x' },
  null,
  [],
  'c-1',
  JSON.parse('{"id":"c-1","__proto__":{"x":1}}') as unknown,
];
const messages = [
  ...objects({
    type: ['text', 'typein', 'image', ABSENT],
    text: ['Hello', '', 'x'.repeat(1000), 'x'.repeat(1001), '😀'.repeat(600), 5, null, ABSENT],
    id: ['m-1', 7, null, ABSENT],
  }),
  { type: 'text', text: 'Hello', extra: 1 },
  { type: 'text', text: 'Hello', file: 'https://x.test/f' },
  [],
];

describe('isPlainCustomerText: the customer text fast path', () => {
  const entry = getKind('channel.customer.text');
  const values: unknown[] = [
    ...senders.flatMap((sender) => messages.map((message) => ({ sender, message }))),
    { sender: { id: 'c-1' }, message: { type: 'text', text: 'Hi' }, extra: true },
    { sender: { id: 'c-1' } },
    JSON.parse(
      '{"sender":{"id":"c-1"},"message":{"type":"text","text":"Hi"},"__proto__":{"a":1}}',
    ) as unknown,
    Object.assign(Object.create(null) as object, {
      sender: { id: 'c-1' },
      message: { type: 'text', text: 'Hi' },
    }),
    null,
    [],
  ];

  it('takes the common shape and leaves the rest to the schema', () => {
    expect(entry.accepts).toBe(isPlainCustomerText);
    const accepted = values.filter((v) => isPlainCustomerText(v));
    expect(accepted.length).toBeGreaterThanOrEqual(18);
    expect(values.length - accepted.length).toBeGreaterThan(1000);
  });

  it('gives exactly what the schema gives, for every value tried', () => {
    const fast = values.map((value) => validate(entry.name, value));
    const accepts = entry.accepts;
    delete entry.accepts;
    try {
      const slow = values.map((value) => validate(entry.name, value));
      expect(fast).toEqual(slow);
      // and what it accepts, the schema passes with no issue at all
      for (const value of values.filter((v) => isPlainCustomerText(v)))
        expect(entry.schema.safeParse(value).success).toBe(true);
    } finally {
      if (accepts) entry.accepts = accepts;
    }
  });
});
