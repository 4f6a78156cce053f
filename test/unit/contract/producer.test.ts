/**
 * Strict with the party under test, tolerant of the platform. The
 * registry's direction names who wrote a kind; the user-visible lines are pinned.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
// CommonJS: its plugin is the default export's `default` under NodeNext types
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { formatIssue, listKinds, toJsonSchema, validate } from '../../../src/contract/index.js';
import { KINDS, producerOf } from '../../../src/contract/registry.js';
import type { ValidationResult } from '../../../src/contract/types.js';

const lines = (r: ValidationResult) => ({
  ok: r.ok,
  errors: r.errors.map(formatIssue),
  warnings: r.warnings.map(formatIssue),
});

const photo = (fileSize: unknown) => ({
  sender: { id: 'c1' },
  message: {
    type: 'photo',
    file: 'https://files.example.com/p.jpg',
    file_name: 'p.jpg',
    file_size: fileSize,
  },
});

const botMessage = (timestamp: unknown) => ({
  event: 'BOT_MESSAGE',
  id: 'e1',
  client_id: 'c1',
  chat_id: 'h1',
  message: { type: 'TEXT', text: 'Hello', timestamp },
});

describe('who wrote the payload', () => {
  it('reads the producer from the direction of each kind', () => {
    expect(producerOf('integrator -> platform')).toBe('party');
    expect(producerOf('bot -> platform')).toBe('party');
    expect(producerOf('hook receiver -> platform')).toBe('party');
    expect(producerOf('platform -> bot')).toBe('platform');
    expect(producerOf('widget -> page')).toBe('platform');
    const party = [...KINDS.values()].filter((k) => k.producer === 'party').map((k) => k.name);
    expect(party).toContain('channel.customer.photo');
    expect(party).toContain('bot.event.BOT_MESSAGE');
    expect(party).toContain('hook.chat_accepted.reply');
    expect(party).not.toContain('bot.event.CLIENT_MESSAGE');
    expect(party).not.toContain('hook.chat_finished');
  });

  it('refuses a customer file_size sent as a string (spec 2.4: number)', () => {
    expect(lines(validate('channel.customer.photo', photo('48213')))).toMatchInlineSnapshot(`
      {
        "errors": [
          "message.file_size: expected a number, got a numeric string (spec 2.4)",
        ],
        "ok": false,
        "warnings": [],
      }
    `);
  });

  it('refuses a numeric sender.id from the integrator (spec 2.1: string)', () => {
    const result = validate('channel.customer.text', {
      sender: { id: 1233 },
      message: { type: 'text', text: 'hi' },
    });
    expect(lines(result)).toMatchInlineSnapshot(`
      {
        "errors": [
          "sender.id: expected a string, got a number (spec 2.1)",
        ],
        "ok": false,
        "warnings": [],
      }
    `);
  });

  it('refuses numeric ids in the bot provider BOT_MESSAGE', () => {
    const result = validate('bot.event.BOT_MESSAGE', { ...botMessage(1665415880), chat_id: 2037 });
    expect(lines(result)).toMatchInlineSnapshot(`
      {
        "errors": [
          "chat_id: expected a string, got a number (spec 2.5)",
        ],
        "ok": false,
        "warnings": [],
      }
    `);
  });

  it('keeps the forms the spec itself allows: timestamp as number or string, numeric button id', () => {
    expect(lines(validate('bot.event.BOT_MESSAGE', botMessage(1665415880)))).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
    expect(lines(validate('bot.event.BOT_MESSAGE', botMessage('1665415880')))).toEqual({
      ok: true,
      errors: [],
      warnings: [],
    });
    const buttons = validate('bot.event.BOT_MESSAGE', {
      ...botMessage(1665415880),
      message: {
        type: 'BUTTONS',
        text: 'Pick one',
        timestamp: 1665415880,
        buttons: [{ text: 'Yes', id: 1 }],
      },
    });
    expect(lines(buttons)).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('warns when a timestamp looks like milliseconds', () => {
    expect(lines(validate('bot.event.BOT_MESSAGE', botMessage(1665415880000))))
      .toMatchInlineSnapshot(`
        {
          "errors": [],
          "ok": true,
          "warnings": [
            "message.timestamp: looks like milliseconds; unix time counts seconds (accepted) (spec 2.5)",
          ],
        }
      `);
  });

  it('tolerates the drift the public samples show from the platform, as warnings', () => {
    const clientMessage = validate('bot.event.CLIENT_MESSAGE', {
      event: 'CLIENT_MESSAGE',
      id: 'e1',
      site_id: '100200',
      client_id: '42',
      chat_id: '7',
      agents_online: true,
      sender: { id: 42, name: 'Ann', url: 'https://shop.example.com/', has_contacts: false },
      message: { type: 'TEXT', text: 'hi', timestamp: 1665415879 },
      channel: { id: '5000', type: 'widget' },
    });
    expect(lines(clientMessage)).toMatchInlineSnapshot(`
      {
        "errors": [],
        "ok": true,
        "warnings": [
          "sender.id: expected a string, got a number (type drift, accepted) (spec 6.1)",
        ],
      }
    `);
    const offline = validate('hook.offline_message', {
      event_name: 'offline_message',
      widget_id: '3948',
      visitor: { number: 2198 },
      session: {},
      page: { url: 'https://shop.example.com/' },
      offline_message_id: 1665399500726,
      message: 'Call me back',
    });
    expect(lines(offline)).toMatchInlineSnapshot(`
      {
        "errors": [],
        "ok": true,
        "warnings": [
          "visitor.number: expected a string, got a number (type drift, accepted) (spec 2.6)",
          "offline_message_id: expected a string, got a number (type drift, accepted) (spec 6.2)",
        ],
      }
    `);
  });

  it('--strict turns the platform drift into errors', () => {
    const value = {
      recipient: { id: 42 },
      message: { type: 'text', text: 'hello' },
    };
    expect(validate('channel.agent.text', value).ok).toBe(true);
    expect(lines(validate('channel.agent.text', value, { strict: true }))).toMatchInlineSnapshot(`
      {
        "errors": [
          "recipient.id: expected a string, got a number (type drift, refused: --strict) (spec 2.2)",
        ],
        "ok": false,
        "warnings": [],
      }
    `);
  });

  it('--strict does not call a refused field accepted', () => {
    const value = {
      sender: { id: 'c1', loyalty_tier: 'gold' },
      message: { type: 'text', text: 'hi' },
    };
    expect(validate('channel.customer.text', value).warnings[0]?.rule).toBe(
      'not in the spec (allowed: real traffic carries extra fields)',
    );
    expect(validate('channel.customer.text', value, { strict: true }).errors[0]?.rule).toBe(
      'not in the spec (refused: --strict)',
    );
    // a likely misspelling keeps its suggestion, and is refused all the same
    const typo = { sender: { id: 'c1' }, message: { type: 'text', text: 'hi', txt: 'hi' } };
    expect(validate('channel.customer.text', typo, { strict: true }).errors[0]?.rule).toMatch(
      /^not in the spec \(refused: --strict\); did you mean/,
    );
    const ms = {
      event: 'BOT_MESSAGE',
      id: 'e',
      message: { type: 'TEXT', text: 'hi', timestamp: 1_700_000_000_000 },
    };
    expect(validate('bot.event.BOT_MESSAGE', ms).warnings[0]?.rule).toMatch(/\(accepted\)$/);
    expect(validate('bot.event.BOT_MESSAGE', ms, { strict: true }).errors[0]?.rule).toMatch(
      /\(refused: --strict\)$/,
    );
  });

  it('the JSON Schema of a party kind refuses drift, of a platform kind accepts it', () => {
    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv); // checks `uri` and the other formats instead of warning
    const customer = ajv.compile(toJsonSchema('channel.customer.photo'));
    expect(customer(photo('48213'))).toBe(false);
    expect(customer(photo(48213))).toBe(true);
    const agent = ajv.compile(toJsonSchema('channel.agent.photo'));
    const agentPhoto = { recipient: { id: 'c1' }, message: photo('48213').message };
    expect(agent(agentPhoto)).toBe(true);
    expect(listKinds().length).toBe(KINDS.size);
  });
});
