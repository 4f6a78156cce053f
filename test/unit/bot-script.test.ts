import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  botScriptJsonSchema,
  DEFAULT_BOT_SCRIPT,
  loadBotScript,
  pickRule,
  botScriptSchema,
} from '../../src/roles/bot/index.js';

const path = (p: string) => new URL(`../../${p}`, import.meta.url).pathname;

describe('bot-sim script format (version 1)', () => {
  it('the committed JSON Schema is the one the zod schema exports', () => {
    const committed = JSON.parse(readFileSync(path('schemas/bot-script.schema.json'), 'utf8'));
    expect(committed).toEqual(botScriptJsonSchema());
  });

  it('ships fixtures/bots/shop.json, which loads and matches rules', async () => {
    const script = await loadBotScript(path('fixtures/bots/shop.json'));
    expect(pickRule(script, { event: 'CLIENT_MESSAGE', text: 'Hello there' })?.name).toBe(
      'greeting',
    );
    expect(pickRule(script, { event: 'CLIENT_MESSAGE', text: 'x', buttonId: 'orders' })?.name).toBe(
      'order-status',
    );
    expect(pickRule(script, { event: 'AGENT_UNAVAILABLE' })?.name).toBe('no-agent');
    expect(pickRule(script, { event: 'CLIENT_MESSAGE', text: '???' })?.delayMs).toBe(500);
  });

  it('the default script covers every rule of the brief', () => {
    const pick = (text: string, buttonId?: string) =>
      pickRule(DEFAULT_BOT_SCRIPT, {
        event: 'CLIENT_MESSAGE',
        text,
        ...(buttonId ? { buttonId } : {}),
      })?.name;
    expect([
      pick('hello'),
      pick('menu'),
      pick('x', 'orders'),
      pick('an agent please'),
      pick('OPERATOR'),
    ]).toEqual(['echo', 'menu', 'button', 'agent', 'agent']);
    expect(botScriptSchema.safeParse(DEFAULT_BOT_SCRIPT).success).toBe(true);
  });

  it('refuses an unknown version and 4 buttons as input errors', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/bot-script-`);
    writeFileSync(`${dir}/v2.json`, JSON.stringify({ version: 2, rules: [] }));
    await expect(loadBotScript(`${dir}/v2.json`)).rejects.toMatchObject({
      code: 'SVC_E_BOT_SCRIPT_VERSION',
    });
    const four = [1, 2, 3, 4].map((i) => ({ id: `b${i}`, text: `B${i}` }));
    writeFileSync(
      `${dir}/four.json`,
      JSON.stringify({
        version: 1,
        rules: [{ reply: [{ type: 'BUTTONS', text: 't', buttons: four }] }],
      }),
    );
    await expect(loadBotScript(`${dir}/four.json`)).rejects.toMatchObject({
      code: 'SVC_E_BOT_SCRIPT',
      category: 'input',
    });
  });
});
