import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Ajv2020 } from 'ajv/dist/2020.js';
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
      // a path the user can open from their own project, not one of this repository
      hint: expect.stringContaining('node_modules/svc-cli/schemas/'),
    });
  });

  it('loads every bundled bot script', async () => {
    const names = readdirSync(path('fixtures/bots')).filter((f) => f.endsWith('.json'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names)
      expect((await loadBotScript(path(`fixtures/bots/${name}`))).rules.length).toBeGreaterThan(0);
  });

  describe('an unknown key is a load error naming the file, its path and the nearest key', () => {
    type Json = { rules: Array<Record<string, unknown>> } & Record<string, unknown>;
    const shop = (): Json =>
      JSON.parse(readFileSync(path('fixtures/bots/shop.json'), 'utf8')) as Json;
    const dir = mkdtempSync(`${tmpdir()}/bot-script-keys-`);
    const problem = async (name: string, script: unknown): Promise<string> => {
      const file = `${dir}/${name}.json`;
      writeFileSync(file, JSON.stringify(script));
      const error: unknown = await loadBotScript(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'SVC_E_BOT_SCRIPT', category: 'input' });
      const message = (error as Error).message;
      expect(message).toContain(file);
      // what follows the file, without the sentence's full stop
      return message.slice(message.indexOf(': ') + 2, -1);
    };
    const renamed = (rule: Record<string, unknown>, from: string, to: string) =>
      Object.fromEntries(Object.entries(rule).map(([k, v]) => [k === from ? to : k, v]));

    it('match -> mach, reply -> replay in a rule', async () => {
      const mach = shop();
      mach.rules[0] = renamed(mach.rules[0]!, 'match', 'mach');
      expect(await problem('mach', mach)).toMatchInlineSnapshot(
        `"rules.0.mach: unknown key (did you mean "match"?)"`,
      );
      const replay = shop();
      replay.rules[1] = renamed(replay.rules[1]!, 'reply', 'replay');
      expect(await problem('replay', replay)).toMatchInlineSnapshot(
        `"rules.1.replay: unknown key (did you mean "reply"?)"`,
      );
    });

    it('deeper down: in match, in a message of the union, in a button; at the top', async () => {
      const script = shop();
      script['rule'] = [];
      script.rules[0] = { match: { txt: 'hi' } };
      script.rules[1] = { reply: [{ type: 'MARKDOWN', content: 'x', txt: 'y' }] };
      script.rules[2] = {
        reply: [{ type: 'BUTTONS', text: 't', buttons: [{ id: 'a', text: 'A', lable: 'A' }] }],
      };
      expect((await problem('deep', script)).split('; ')).toMatchInlineSnapshot(`
        [
          "rule: unknown key (did you mean "rules"?)",
          "rules.0.match.txt: unknown key (did you mean "text"?)",
          "rules.1.reply.0.txt: unknown key (did you mean "text"?)",
          "rules.2.reply.0.buttons.0.lable: unknown key (known keys: "id", "text")",
        ]
      `);
    });
  });

  it('the JSON Schema refuses the same typo (additionalProperties false)', () => {
    const ajv = new Ajv2020({ strict: false });
    const check = ajv.compile(botScriptJsonSchema());
    const script = JSON.parse(readFileSync(path('fixtures/bots/shop.json'), 'utf8')) as {
      rules: Array<Record<string, unknown>>;
    };
    expect(check(script)).toBe(true);
    script.rules[0] = { mach: { text: 'hi' } };
    expect(check(script)).toBe(false);
    expect(check.errors?.[0]).toMatchObject({
      instancePath: '/rules/0',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'mach' },
    });
  });
});
