import { z } from 'zod';
import { SvcError, systemReason } from '../../errors.js';
import { readInputFile } from '../../io/input-file.js';
import { unknownKeyLines } from '../../unknown-keys.js';
import { versionProblem, type VersionedKind } from '../../versioned.js';
import { issueLine } from '../../issue-words.js';

const BOT_SCRIPT_KIND: VersionedKind = {
  shape: 'a bot script is one JSON object with "version": 1 and its rules',
  example: "svc-cli's fixtures/bots/shop.json is one; the format is schemas/bot-script.schema.json",
};

/**
 * The bot-sim script format (versioned, a zod schema exported as JSON
 * Schema `schemas/bot-script.schema.json`). Rules are tried in order; the first that matches
 * an incoming event sends its messages (spec 2.5), after `delayMs`, then INVITE_AGENT when
 * `invite` is set. Text may hold `{{text}}` and `{{button}}`, filled from the event. Every
 * object is strict: a typo'd key (`mach`) is a load error, never a rule that matches anything.
 */
const buttonId = z.union([z.string().min(1), z.number()]);

// spec 2.5: TEXT, MARKDOWN (with a plain-text fallback), BUTTONS (at most 3)
export const scriptMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('TEXT'), text: z.string() }),
  z.strictObject({
    type: z.literal('MARKDOWN'),
    content: z.string(),
    text: z
      .string()
      .optional()
      .describe('plain-text fallback; without it the platform does not deliver'),
  }),
  z.strictObject({
    type: z.literal('BUTTONS'),
    title: z.string().optional(),
    text: z
      .string()
      .optional()
      .describe('plain-text fallback; without it the platform does not deliver'),
    buttons: z
      .array(z.strictObject({ id: buttonId, text: z.string().min(1) }))
      .min(1)
      .max(3),
  }),
]);

export const scriptRuleSchema = z.strictObject({
  name: z.string().optional(),
  match: z
    .strictObject({
      /** the customer's text, case-insensitive, trimmed */
      text: z.string().optional(),
      /** a regular expression on the customer's text (flag i) */
      regex: z.string().optional(),
      /** a clicked button id (spec 2.5 TEXT.button_id); "*" for any button */
      button: z.string().optional(),
      /** the incoming event (default CLIENT_MESSAGE) */
      event: z
        .enum([
          'CLIENT_MESSAGE',
          'AGENT_JOINED',
          'AGENT_UNAVAILABLE',
          'CHAT_CLOSED',
          'AGENT_MESSAGE',
        ])
        .optional(),
    })
    .default({}),
  reply: z.array(scriptMessageSchema).default([]),
  /** protocol ms to wait before acting */
  delayMs: z.number().int().min(0).optional(),
  /** send INVITE_AGENT after the replies (spec 6.1) */
  invite: z.boolean().optional(),
  /**
   * send CLIENT_INFO (public Bot API) with the e-mail and phone found in the customer's
   * text, after the replies; only when bot-sim runs with --bot-events docs
   */
  contact: z.boolean().optional(),
});

export const botScriptSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1),
  name: z.string().optional(),
  rules: z.array(scriptRuleSchema),
});

export type BotScript = z.output<typeof botScriptSchema>;
export type ScriptRule = z.output<typeof scriptRuleSchema>;
export type ScriptMessage = z.output<typeof scriptMessageSchema>;

/**
 * An e-mail address, or a phone number: `+` and 7+ digits, or 9-10 digits grouped 3-3-3/4
 * (`555 010 0100`, `(555) 010-0100`). A heuristic: dates (`2026-11-25`) and short order
 * numbers are not phones. As a script regex (flag i).
 */
const EMAIL = '[^\\s@]+@[^\\s@]+\\.[a-z]{2,}';
const PHONE = '\\+\\d[\\d ()-]{5,}\\d|\\(?\\b\\d{3}\\)?[ -]?\\d{3}[ -]?\\d{3,4}\\b';
export const CONTACT_PATTERN = `${EMAIL}|${PHONE}`;

/**
 * The contact data in a customer's text: the first e-mail address and phone number.
 * @example contactsIn('mail jane@example.com or call +1 555 0100') // { email: 'jane@example.com', phone: '+1 555 0100' }
 */
export function contactsIn(text: string): { email?: string; phone?: string } {
  const email = new RegExp(EMAIL, 'i').exec(text)?.[0];
  const phone = new RegExp(PHONE).exec(text)?.[0];
  return { ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
}

/** The default script: shows every message type and the spec 3 hand-over flow. */
export const DEFAULT_BOT_SCRIPT: BotScript = {
  version: 1,
  name: 'default',
  rules: [
    {
      name: 'button',
      match: { button: '*' },
      reply: [
        {
          type: 'MARKDOWN',
          content: 'You picked **{{button}}**. [Track your order](https://example.com/orders)',
          text: 'You picked {{button}}. Track your order: https://example.com/orders',
        },
      ],
    },
    {
      name: 'menu',
      match: { text: 'menu' },
      reply: [
        {
          type: 'BUTTONS',
          title: 'How can I help?',
          text: 'How can I help? Reply: orders, returns or delivery',
          buttons: [
            { id: 'orders', text: 'Orders' },
            { id: 'returns', text: 'Returns' },
            { id: 'delivery', text: 'Delivery' },
          ],
        },
      ],
    },
    { name: 'agent', match: { regex: '\\b(agent|operator)\\b' }, reply: [], invite: true },
    {
      // spec 3: no agent available -> per the bot's script it asks for contact data
      name: 'no-agent',
      match: { event: 'AGENT_UNAVAILABLE' },
      reply: [
        {
          type: 'TEXT',
          text: 'No agent is free right now. Please leave your e-mail or phone number and we will contact you.',
        },
      ],
    },
    { name: 'agent-joined', match: { event: 'AGENT_JOINED' }, reply: [] },
    {
      // the customer leaves contact data; with --bot-events docs it goes on as CLIENT_INFO
      name: 'contacts',
      match: { regex: CONTACT_PATTERN },
      reply: [{ type: 'TEXT', text: 'Thank you, we will contact you.' }],
      contact: true,
    },
    { name: 'echo', match: {}, reply: [{ type: 'TEXT', text: 'You said: {{text}}' }] },
  ],
};

/** What a rule is matched against. */
export interface ScriptInput {
  event: 'CLIENT_MESSAGE' | 'AGENT_JOINED' | 'AGENT_UNAVAILABLE' | 'CHAT_CLOSED' | 'AGENT_MESSAGE';
  text?: string;
  buttonId?: string;
}

/**
 * The first rule that matches, or undefined.
 * @example pickRule(DEFAULT_BOT_SCRIPT, { event: 'CLIENT_MESSAGE', text: 'menu' })?.name // 'menu'
 */
export function pickRule(script: BotScript, input: ScriptInput): ScriptRule | undefined {
  return script.rules.find((rule) => {
    const m = rule.match;
    if ((m.event ?? 'CLIENT_MESSAGE') !== input.event) return false;
    if (
      m.button !== undefined &&
      (input.buttonId === undefined || (m.button !== '*' && m.button !== input.buttonId))
    )
      return false;
    const text = (input.text ?? '').trim();
    if (m.text !== undefined && m.text.trim().toLowerCase() !== text.toLowerCase()) return false;
    if (m.regex !== undefined && !new RegExp(m.regex, 'i').test(text)) return false;
    return true;
  });
}

/** Fills `{{text}}` and `{{button}}` in a message's strings. */
export function fillMessage(message: ScriptMessage, input: ScriptInput): ScriptMessage {
  const fill = (s: string): string =>
    s.replaceAll('{{text}}', input.text ?? '').replaceAll('{{button}}', input.buttonId ?? '');
  switch (message.type) {
    case 'TEXT':
      return { ...message, text: fill(message.text) };
    case 'MARKDOWN':
      return {
        ...message,
        content: fill(message.content),
        ...(message.text === undefined ? {} : { text: fill(message.text) }),
      };
    case 'BUTTONS':
      return { ...message, ...(message.text === undefined ? {} : { text: fill(message.text) }) };
    default: {
      const never: never = message;
      throw new Error(`unknown message ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Loads and checks a script file; problems are input errors (exit 2) naming the path.
 * @example const script = await loadBotScript('fixtures/bots/shop.json');
 */
export async function loadBotScript(
  file: string,
  named: { given: string; cwd: string } = { given: file, cwd: process.cwd() },
): Promise<BotScript> {
  const text = await readInputFile({
    kind: 'botScript',
    ...named,
    path: file,
    code: 'SVC_E_BOT_SCRIPT',
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SvcError(
      'SVC_E_BOT_SCRIPT',
      `Could not read the bot script ${file}: ${systemReason(error)}.`,
    );
  }
  const wrong = versionProblem(json, 1, BOT_SCRIPT_KIND);
  if (wrong)
    throw new SvcError(
      wrong.about === 'shape' ? 'SVC_E_BOT_SCRIPT' : 'SVC_E_BOT_SCRIPT_VERSION',
      `Could not use the bot script ${file}: ${wrong.problem}.`,
      wrong.hint,
    );
  const parsed = botScriptSchema.safeParse(json);
  if (!parsed.success) {
    // an unknown key is a typo (`mach` for `match` would match everything): named first, with
    // the key it is closest to
    const problems = [
      ...unknownKeyLines(botScriptSchema, parsed.error.issues, json),
      ...parsed.error.issues.filter((i) => i.code !== 'unrecognized_keys').map((i) => issueLine(i)),
    ]
      .slice(0, 5)
      .join('; ');
    throw new SvcError(
      'SVC_E_BOT_SCRIPT',
      `Could not use the bot script ${file}: ${problems}.`,
      // a path a user's shell can open: the package's own folder, not this repository's
      "The format is the svc-cli package's schemas/bot-script.schema.json (node_modules/svc-cli/schemas/ in a project); its fixtures/bots/shop.json is an example.",
    );
  }
  for (const rule of parsed.data.rules) {
    if (rule.match.regex === undefined) continue;
    try {
      new RegExp(rule.match.regex, 'i');
    } catch (error) {
      throw new SvcError(
        'SVC_E_BOT_SCRIPT',
        `Could not use the bot script ${file}: regex ${JSON.stringify(rule.match.regex)}: ${(error as Error).message}.`,
      );
    }
  }
  return parsed.data;
}

/** The script format as JSON Schema (draft 2020-12), for `$schema` in script files. */
export function botScriptJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://svc-cli.invalid/schemas/bot-script.schema.json',
    title: 'svc-cli bot-sim script',
    ...(z.toJSONSchema(botScriptSchema, { target: 'draft-2020-12', io: 'input' }) as Record<
      string,
      unknown
    >),
  };
}
