/**
 * `fixtures/payloads/real/` holds payloads rebuilt from the public
 * documentation's samples (own values, the documented shapes), one per event. Each must be
 * accepted by validate (warnings allowed); the drift the samples show must stay visible.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, validate, validateAuto } from '../../../src/contract/index.js';

const root = path.resolve(import.meta.dirname, '../../../fixtures/payloads/real');

function list(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return list(full);
    return entry.name.endsWith('.json') && !entry.name.endsWith('.expect.json') ? [full] : [];
  });
}

const files = list(root);
const read = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(root, name), 'utf8')) as unknown;

describe('fixtures/payloads/real (docs-shaped payloads)', () => {
  it('holds one payload per documented event', () => {
    const kinds = files.map((f) => validateAuto(JSON.parse(readFileSync(f, 'utf8'))).kind);
    expect(kinds.sort()).toEqual([
      'bot.event.AGENT_MESSAGE',
      'bot.event.AGENT_UNAVAILABLE',
      'bot.event.BOT_MESSAGE',
      'bot.event.CHAT_CLOSED',
      'bot.event.CLIENT_INFO',
      'bot.event.CLIENT_MESSAGE',
      'bot.event.INVITE_AGENT',
      'hook.call_event',
      'hook.chat_accepted',
      'hook.chat_accepted.reply',
      'hook.chat_finished',
      'hook.chat_updated',
      'hook.client_attribute_updated',
      'hook.client_updated',
      'hook.offline_message',
    ]);
  });

  it.each(files.map((f) => [path.relative(root, f), f]))('%s is accepted', (_name, file) => {
    const result = validateAuto(JSON.parse(readFileSync(file, 'utf8')));
    expect(result.errors.map(formatIssue)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('keeps the documented drift visible as warnings, and --strict refuses it', () => {
    const clientMessage = validate(
      'bot.event.CLIENT_MESSAGE',
      read('bot/client-message.warning.json'),
    );
    expect(clientMessage.warnings.map((w) => `${w.path} ${w.code}`)).toEqual([
      'sender.id type_drift',
    ]);
    const finished = validate('hook.chat_finished', read('hooks/chat-finished.warning.json'));
    expect(finished.warnings.filter((w) => w.code !== 'unknown_field').map(formatIssue))
      .toMatchInlineSnapshot(`
      [
        "analytics: null for an optional field (read as absent) (spec 6.2)",
        "agents[0].id: expected a number, got a numeric string (type drift, accepted) (spec 2.6)",
      ]
    `);
    expect(
      validate('hook.chat_finished', read('hooks/chat-finished.warning.json'), { strict: true }).ok,
    ).toBe(false);
  });

  it('reads the chat-log text from message, the documented field', () => {
    const finished = read('hooks/chat-finished.warning.json') as {
      chat: { messages: { message?: string }[] };
    };
    expect(finished.chat.messages.every((m) => typeof m.message === 'string')).toBe(true);
    const result = validate('hook.chat_finished', finished);
    expect(result.warnings.some((w) => w.path.startsWith('chat.messages'))).toBe(false);
  });
});
