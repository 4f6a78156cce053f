/**
 * Platform profiles: what a platform was seen to do (learned from recordings by
 * `record profile`, src/conversation/record/profile.ts) or is read to do (the built-in `spec`
 * and `docs`), each figure with the number of observations behind it, and the simulator
 * settings a profile gives (`platform`, `replay`, the msw handlers, `conform`); what a profile
 * does not say, the spec fills. No file access here: the msw handlers run in a browser too.
 */
import { z } from 'zod';
import { KINDS } from '../contract/registry.js';
import {
  attemptOffsetMs,
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  type ChannelReplyReading,
  type DeliveryPolicy,
} from '../contract/timing.js';
import { DEFAULT_SERVER_LIMITS } from '../http/server.js';
import type { AnswerForms, KindForms, PayloadForms } from './payload-forms.js';

/** A learned (or read) figure and how many observations stand behind it (0: read, not seen). */
const figure = <T extends z.ZodType>(value: T) =>
  z.object({ value, observations: z.number().int().nonnegative() }).strict();

const ms = figure(z.number().nonnegative());
const count = figure(z.number().int().min(1).max(10));

/** How one party is delivered to: attempts, the schedule, the wait per attempt, the give-up. */
const deliverySchema = z
  .object({
    attempts: count.optional().describe('attempts per payload before the platform gives up'),
    intervalMs: ms.optional().describe('attempt k starts (k - 1) x this after the first'),
    scheduleMs: figure(z.array(z.number().nonnegative()).min(1).max(10))
      .optional()
      .describe(
        'when each attempt starts after the first (0 first), where the gaps differ; over intervalMs',
      ),
    attemptTimeoutMs: ms.optional().describe('how long one attempt waits for the reply'),
    failAfterMs: ms
      .optional()
      .describe('from the first attempt to giving up (the bot: the hand-over)'),
  })
  .strict();

const formTally = z.record(z.string(), z.record(z.string(), z.number().int()));

const kindSchema = z
  .object({
    observations: z
      .number()
      .int()
      .nonnegative()
      .describe('exchanges seen; 0 for a kind written by hand (its fields then add, never remove)'),
    direction: z
      .enum(['in', 'out'])
      .optional()
      .describe('out: the platform sent it; in: a peer sent it, the platform answered'),
    statuses: z.record(z.string(), z.number().int()).describe('HTTP status -> exchanges'),
    fields: formTally.describe(
      'request body JSON path -> value form (string, numeric string, number, number (ms timestamp), ...) -> count',
    ),
    answerFields: formTally
      .optional()
      .describe(
        "the platform's 2xx answer body (kinds sent to it): JSON path -> value form -> count",
      ),
    keepAlive: z.record(z.string(), z.number().int()).optional(),
  })
  .strict();

/** The profile file (`--profile real.profile.json`), versioned like every on-disk format. */
export const profileSchema = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1),
    name: z.string(),
    description: z.string().optional(),
    learnedFrom: z
      .object({ files: z.array(z.string()), exchanges: z.number().int().nonnegative() })
      .strict()
      .optional(),
    channel: deliverySchema
      .extend({
        replies: figure(z.enum(['spec', 'docs']))
          .optional()
          .describe(
            "docs: the integrator's reply is read by its status class, as the public Chat API page says (any 2xx accepted, a 4xx not resent)",
          ),
      })
      .strict()
      .optional()
      .describe('agent messages to the integrator (spec 8)'),
    bot: deliverySchema
      .extend({
        events: figure(z.enum(['spec', 'docs']))
          .optional()
          .describe("docs: the public Bot API's CHAT_CLOSED and CLIENT_INFO too"),
      })
      .strict()
      .optional()
      .describe('events to the bot provider (spec 8: 2 attempts of 3 s, then hand-over)'),
    hooks: z
      .object({
        events: figure(z.enum(['spec', 'docs']))
          .optional()
          .describe(
            "docs: the public Webhooks page's client_updated and client_attribute_updated too",
          ),
      })
      .strict()
      .optional()
      .describe('event hooks (spec 6.2)'),
    keepAliveMs: ms.optional().describe('how long an idle connection is kept (Keep-Alive)'),
    widget: z
      .object({
        attributeCallsPerHour: count
          .extend({ value: z.number().int().min(1) })
          .optional()
          .describe('setClientAttributes calls per visitor and hour before refusal'),
      })
      .strict()
      .optional(),
    kinds: z
      .record(z.string(), kindSchema)
      .optional()
      .describe('what each payload kind looked like: statuses and field forms'),
  })
  .strict()
  .describe('svc-cli platform profile: what the simulator follows where the spec is silent');

export type Profile = z.infer<typeof profileSchema>;
/** What a profile says of one payload kind. */
export type ProfileKind = z.infer<typeof kindSchema>;
export type ProfileFigure<T> = { value: T; observations: number };

/** The spec as a profile: nothing over the spec's defaults. */
export const SPEC_PROFILE: Profile = {
  version: 1,
  name: 'spec',
  description: "the spec's defaults (spec 8: 3 channel attempts 3 s apart, 2 bot attempts)",
};

/**
 * The public docs' readings (docs/FIDELITY.md), none of them observed: the Chat API page's
 * reading of an integrator's reply by its status class, the Bot API's "3 s,
 * with 2 retries" (three attempts, hand-over at 9 s), its CHAT_CLOSED and CLIENT_INFO, and the
 * JS API's 10 setClientAttributes calls per hour.
 */
export const DOCS_PROFILE: Profile = {
  version: 1,
  name: 'docs',
  description: "the public developer docs' readings where they go beyond the spec",
  channel: { replies: { value: 'docs', observations: 0 } },
  bot: {
    attempts: { value: 3, observations: 0 },
    intervalMs: { value: 3000, observations: 0 },
    attemptTimeoutMs: { value: 3000, observations: 0 },
    failAfterMs: { value: 9000, observations: 0 },
    events: { value: 'docs', observations: 0 },
  },
  hooks: { events: { value: 'docs', observations: 0 } },
  widget: { attributeCallsPerHour: { value: 10, observations: 0 } },
};

export const BUILT_IN_PROFILES = { spec: SPEC_PROFILE, docs: DOCS_PROFILE } as const;

/** What the simulator takes from a profile, the spec filling the rest. */
export interface SimulatorSettings {
  profile: string;
  channelPolicy: DeliveryPolicy;
  /** docs: the integrator's reply is read by its status class (the public Chat API page) */
  channelReplies: ChannelReplyReading;
  botPolicy: DeliveryPolicy;
  botEvents: 'spec' | 'docs';
  /** docs: the hook service also sends client_updated and client_attribute_updated */
  hookEvents: 'spec' | 'docs';
  keepAliveTimeoutMs?: number;
  attributeCallsPerHour?: number;
  /** the payload forms the profile's kinds ask for (none: the spec's) */
  forms?: PayloadForms;
}

function policyOf(
  base: DeliveryPolicy,
  d: z.infer<typeof deliverySchema> | undefined,
): DeliveryPolicy {
  const attempts = d?.attempts?.value ?? base.attempts;
  const intervalMs = d?.intervalMs?.value ?? base.intervalMs;
  const attemptTimeoutMs = d?.attemptTimeoutMs?.value ?? base.attemptTimeoutMs;
  const offsetsMs = d?.scheduleMs?.value;
  const policy: DeliveryPolicy = {
    attempts,
    intervalMs,
    attemptTimeoutMs,
    failAfterMs: 0,
    ...(offsetsMs ? { offsetsMs } : {}),
  };
  // spec 8: the give-up comes once the last attempt's wait is over
  policy.failAfterMs =
    d?.failAfterMs?.value ??
    attemptOffsetMs(policy, attempts) + Math.min(attemptTimeoutMs, intervalMs);
  return policy;
}

/** Kinds a peer sends the platform (it answers them); the rest the platform sends. */
const PEER_KINDS =
  /^(channel\.customer\.|channel\.status$|bot\.event\.(BOT_MESSAGE|INVITE_AGENT|CLIENT_INFO)$)/;

/** Who sent a kind: the profile's word, else the registry's producer, else its name. */
function directionOf(name: string, kind: ProfileKind): 'in' | 'out' {
  if (kind.direction) return kind.direction;
  const producer = KINDS.get(name)?.producer;
  if (producer) return producer === 'party' ? 'in' : 'out';
  return PEER_KINDS.test(name) ? 'in' : 'out';
}

/** The 2xx status most answers of a kind had (the simulator answers 200). */
function successStatusOf(statuses: Record<string, number>): number | undefined {
  const ok = Object.entries(statuses)
    .filter(([s]) => /^2\d\d$/.test(s))
    .sort((x, y) => y[1] - x[1]);
  return ok[0] ? Number(ok[0][0]) : undefined;
}

/**
 * The payload forms a profile's kinds ask for: what the platform sends in the forms it was
 * seen to send (an observed kind's unseen fields left out), what it answers with its status
 * and answer fields.
 * @example formsOf({ 'bot.event.CLIENT_MESSAGE': { observations: 0, statuses: {}, fields: { chat_id: { number: 1 } } } }).sent
 */
export function formsOf(kinds: Record<string, ProfileKind> | undefined): PayloadForms | undefined {
  if (!kinds || Object.keys(kinds).length === 0) return undefined;
  const sent: Record<string, KindForms> = {};
  const answered: Record<string, AnswerForms> = {};
  for (const [name, kind] of Object.entries(kinds)) {
    const seen = kind.observations > 0;
    if (directionOf(name, kind) === 'out') {
      sent[name] = { fields: kind.fields, exclusive: seen };
      continue;
    }
    const status = successStatusOf(kind.statuses);
    answered[name] = {
      fields: kind.answerFields ?? {},
      exclusive: seen && kind.answerFields !== undefined,
      ...(status === undefined ? {} : { status }),
    };
  }
  return { sent, answered };
}

/**
 * The simulator's settings under a profile.
 * @example settingsOf(DOCS_PROFILE).botPolicy.attempts // 3
 */
export function settingsOf(profile: Profile): SimulatorSettings {
  const forms = formsOf(profile.kinds);
  return {
    profile: profile.name,
    channelPolicy: profile.channel
      ? policyOf(CHANNEL_DELIVERY_POLICY, profile.channel)
      : CHANNEL_DELIVERY_POLICY,
    channelReplies: profile.channel?.replies?.value ?? 'spec',
    botPolicy: profile.bot ? policyOf(BOT_DELIVERY_POLICY, profile.bot) : BOT_DELIVERY_POLICY,
    botEvents: profile.bot?.events?.value ?? 'spec',
    hookEvents: profile.hooks?.events?.value ?? 'spec',
    ...(profile.keepAliveMs ? { keepAliveTimeoutMs: profile.keepAliveMs.value } : {}),
    ...(profile.widget?.attributeCallsPerHour
      ? { attributeCallsPerHour: profile.widget.attributeCallsPerHour.value }
      : {}),
    ...(forms ? { forms } : {}),
  };
}

/**
 * What a simulator core takes from the settings: the channel's policy and the payload forms.
 * @example createPlatform({ ...coreOptionsOf(settings), clock })
 */
export function coreOptionsOf(settings: SimulatorSettings): {
  channelPolicy: DeliveryPolicy;
  channelReplies?: ChannelReplyReading;
  forms?: PayloadForms;
} {
  return {
    channelPolicy: settings.channelPolicy,
    ...(settings.channelReplies === 'docs' ? { channelReplies: settings.channelReplies } : {}),
    ...(settings.forms ? { forms: settings.forms } : {}),
  };
}

/**
 * One line for a banner or `doctor`: the settings the simulator follows.
 * @example describeSettings(settingsOf(DOCS_PROFILE)) // 'channel 3 attempts 3000 ms apart; bot 3 attempts ...'
 */
export function describeSettings(s: SimulatorSettings): string {
  const policy = (p: DeliveryPolicy) =>
    p.offsetsMs
      ? `${p.attempts} attempts at ${p.offsetsMs.slice(0, p.attempts).join(', ')} ms, ${p.attemptTimeoutMs} ms each`
      : `${p.attempts} attempts ${p.intervalMs} ms apart, ${p.attemptTimeoutMs} ms each`;
  return [
    `channel ${policy(s.channelPolicy)}${s.channelReplies === 'docs' ? ', replies read by status class' : ''}`,
    `bot ${policy(s.botPolicy)}, hand-over at ${s.botPolicy.failAfterMs} ms, events ${s.botEvents}`,
    ...(s.hookEvents === 'docs' ? ['hook events docs'] : []),
    `keep-alive ${(s.keepAliveTimeoutMs ?? DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs) / 1000} s`,
    ...(s.attributeCallsPerHour === undefined
      ? []
      : [`setClientAttributes ${s.attributeCallsPerHour}/h`]),
    ...(s.forms ? [formsLine(s.forms)] : []),
  ].join('; ');
}

/** `payload forms of 9 kinds (2 answered)`: how much of the wire a profile reshapes. */
function formsLine(forms: PayloadForms): string {
  const sent = Object.keys(forms.sent ?? {}).length;
  const answered = Object.keys(forms.answered ?? {}).length;
  return `payload forms of ${sent + answered} kinds (${answered} answered)`;
}
