/**
 * Platform profiles: what a platform was seen to do (learned from recordings by
 * `record profile`) or is read to do (the built-in `spec` and `docs`), each figure with the
 * number of observations behind it. `platform --profile` and `replay --profile` make the
 * simulator follow one; what a profile does not say, the spec fills.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { SvcError, systemReason } from '../../errors.js';
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  type DeliveryPolicy,
} from '../../platform/delivery.js';
import { DEFAULT_SERVER_LIMITS } from '../../http/server.js';
import type { Figure, KindObservation, RecordingObservation, Tally } from './observe.js';

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
    attemptTimeoutMs: ms.optional().describe('how long one attempt waits for the reply'),
    failAfterMs: ms
      .optional()
      .describe('from the first attempt to giving up (the bot: the hand-over)'),
  })
  .strict();

const kindSchema = z
  .object({
    observations: z.number().int().nonnegative(),
    statuses: z.record(z.string(), z.number().int()).describe('HTTP status -> exchanges'),
    fields: z
      .record(z.string(), z.record(z.string(), z.number().int()))
      .describe('request body JSON path -> value form (string, numeric string, ...) -> count'),
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
    channel: deliverySchema.optional().describe('agent messages to the integrator (spec 8)'),
    bot: deliverySchema
      .extend({
        events: figure(z.enum(['spec', 'docs']))
          .optional()
          .describe("docs: the public Bot API's CHAT_CLOSED and CLIENT_INFO too"),
      })
      .strict()
      .optional()
      .describe('events to the bot provider (spec 8: 2 attempts of 3 s, then hand-over)'),
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
export type ProfileFigure<T> = { value: T; observations: number };

/** The spec as a profile: nothing over the spec's defaults. */
export const SPEC_PROFILE: Profile = {
  version: 1,
  name: 'spec',
  description: "the spec's defaults (spec 8: 3 channel attempts 3 s apart, 2 bot attempts)",
};

/**
 * The public docs' readings (docs/FIDELITY.md), none of them observed: the Bot API's "3 s,
 * with 2 retries" (three attempts, hand-over at 9 s), its CHAT_CLOSED and CLIENT_INFO, and the
 * JS API's 10 setClientAttributes calls per hour.
 */
export const DOCS_PROFILE: Profile = {
  version: 1,
  name: 'docs',
  description: "the public developer docs' readings where they go beyond the spec",
  bot: {
    attempts: { value: 3, observations: 0 },
    intervalMs: { value: 3000, observations: 0 },
    attemptTimeoutMs: { value: 3000, observations: 0 },
    failAfterMs: { value: 9000, observations: 0 },
    events: { value: 'docs', observations: 0 },
  },
  widget: { attributeCallsPerHour: { value: 10, observations: 0 } },
};

export const BUILT_IN_PROFILES = { spec: SPEC_PROFILE, docs: DOCS_PROFILE } as const;

const round = (n: number) => Math.round(n);
const fig = (f: Figure | undefined): ProfileFigure<number> | undefined =>
  f ? { value: round(f.mean), observations: f.n } : undefined;

function merge(figures: (Figure | undefined)[]): Figure | undefined {
  let out: Figure | undefined;
  for (const f of figures) {
    if (!f) continue;
    if (!out) out = { ...f };
    else {
      const n = out.n + f.n;
      out = {
        n,
        min: Math.min(out.min, f.min),
        max: Math.max(out.max, f.max),
        mean: (out.mean * out.n + f.mean * f.n) / n,
      };
    }
  }
  return out;
}

/** What the deliveries of these kinds showed: attempts of given-up series, offsets, waits. */
function learnDelivery(kinds: KindObservation[]) {
  const given: number[] = [];
  let gaveUp = 0;
  for (const k of kinds) {
    if (!k.series?.gaveUpAfter) continue;
    // a series that gave up ran every attempt the policy allows
    const attempts = Object.keys(k.series.attempts).map(Number);
    given.push(Math.max(...attempts));
    gaveUp += k.series.outcomes['gave-up'] ?? 0;
  }
  // attempt k's offset / (k - 1): every later attempt says something about the interval
  const intervals = kinds.flatMap((k) =>
    Object.entries(k.series?.offsets ?? {}).map(([n, f]) => ({
      n: f.n,
      min: f.min / (Number(n) - 1),
      max: f.max / (Number(n) - 1),
      mean: f.mean / (Number(n) - 1),
    })),
  );
  const out: z.infer<typeof deliverySchema> = {};
  if (given.length > 0) out.attempts = { value: Math.max(...given), observations: gaveUp };
  const interval = fig(merge(intervals));
  if (interval) out.intervalMs = interval;
  const timeout = fig(merge(kinds.map((k) => k.timeouts)));
  if (timeout) out.attemptTimeoutMs = timeout;
  const failAfter = fig(merge(kinds.map((k) => k.series?.gaveUpAfter)));
  if (failAfter) out.failAfterMs = failAfter;
  return out;
}

const sum = (t: Tally) => Object.values(t).reduce((s, n) => s + n, 0);

/**
 * Learns a profile from an observation of recordings.
 * @example learnProfile(await observeRecordings(['real.ndjson']), 'real').bot?.attempts
 */
export function learnProfile(seen: RecordingObservation, name: string): Profile {
  const all = Object.values(seen.kinds);
  const profile: Profile = {
    version: 1,
    name,
    learnedFrom: { files: seen.files, exchanges: seen.records },
  };
  const channel = learnDelivery(
    all.filter((k) => k.iface === 'channel' && k.kind.startsWith('channel.agent.')),
  );
  if (Object.keys(channel).length > 0) profile.channel = channel;
  const botKinds = all.filter((k) => k.iface === 'bot' && k.direction === 'out');
  const bot: NonNullable<Profile['bot']> = learnDelivery(
    botKinds.filter((k) => k.kind !== 'bot.event.CHAT_CLOSED'),
  );
  const docsEvents = all.filter(
    (k) => k.kind === 'bot.event.CHAT_CLOSED' || k.kind === 'bot.event.CLIENT_INFO',
  );
  if (docsEvents.length > 0)
    bot.events = { value: 'docs', observations: docsEvents.reduce((s, k) => s + k.count, 0) };
  if (Object.keys(bot).length > 0) profile.bot = bot;
  // the platform's own answers (it served the request) tell its Keep-Alive
  const keepAlive: Tally = {};
  for (const k of all.filter((k) => k.direction === 'in'))
    for (const [v, n] of Object.entries(k.headers.keepAlive))
      keepAlive[v] = (keepAlive[v] ?? 0) + n;
  const timeouts = Object.entries(keepAlive)
    .map(([v, n]) => ({ s: /timeout=(\d+)/.exec(v)?.[1], n }))
    .filter((t) => t.s !== undefined);
  if (timeouts.length > 0) {
    const top = timeouts.sort((x, y) => y.n - x.n)[0]!;
    profile.keepAliveMs = { value: Number(top.s) * 1000, observations: top.n };
  }
  profile.kinds = Object.fromEntries(
    all
      .sort((x, y) => x.kind.localeCompare(y.kind))
      .map((k) => [
        k.kind,
        {
          observations: k.count,
          statuses: k.statuses,
          fields: k.fields,
          ...(sum(k.headers.keepAlive) > 0 ? { keepAlive: k.headers.keepAlive } : {}),
        },
      ]),
  );
  return profile;
}

/** What the simulator takes from a profile, the spec filling the rest. */
export interface SimulatorSettings {
  profile: string;
  channelPolicy: DeliveryPolicy;
  botPolicy: DeliveryPolicy;
  botEvents: 'spec' | 'docs';
  keepAliveTimeoutMs?: number;
  attributeCallsPerHour?: number;
}

function policyOf(base: DeliveryPolicy, d: z.infer<typeof deliverySchema> | undefined) {
  const attempts = d?.attempts?.value ?? base.attempts;
  const intervalMs = d?.intervalMs?.value ?? base.intervalMs;
  const attemptTimeoutMs = d?.attemptTimeoutMs?.value ?? base.attemptTimeoutMs;
  return {
    attempts,
    intervalMs,
    attemptTimeoutMs,
    // spec 8: the give-up comes once the last attempt's wait is over
    failAfterMs:
      d?.failAfterMs?.value ?? (attempts - 1) * intervalMs + Math.min(attemptTimeoutMs, intervalMs),
  };
}

/**
 * The simulator's settings under a profile.
 * @example settingsOf(DOCS_PROFILE).botPolicy.attempts // 3
 */
export function settingsOf(profile: Profile): SimulatorSettings {
  return {
    profile: profile.name,
    channelPolicy: profile.channel
      ? policyOf(CHANNEL_DELIVERY_POLICY, profile.channel)
      : CHANNEL_DELIVERY_POLICY,
    botPolicy: profile.bot ? policyOf(BOT_DELIVERY_POLICY, profile.bot) : BOT_DELIVERY_POLICY,
    botEvents: profile.bot?.events?.value ?? 'spec',
    ...(profile.keepAliveMs ? { keepAliveTimeoutMs: profile.keepAliveMs.value } : {}),
    ...(profile.widget?.attributeCallsPerHour
      ? { attributeCallsPerHour: profile.widget.attributeCallsPerHour.value }
      : {}),
  };
}

/**
 * A profile by name (`spec`, `docs`) or file; a file that is not a profile is an input error
 * naming what is wrong.
 * @example const profile = await loadProfile('docs', process.cwd());
 */
export async function loadProfile(nameOrFile: string, cwd: string): Promise<Profile> {
  if (nameOrFile === 'spec' || nameOrFile === 'docs') return BUILT_IN_PROFILES[nameOrFile];
  const path = resolve(cwd, nameOrFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: ${systemReason(error)}.`,
      'Give spec, docs, or a file written by `svc-cli record profile`.',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: ${systemReason(error)}.`,
    );
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== 1)
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: version ${JSON.stringify(version)} is not known (this svc-cli reads version 1).`,
    );
  const parsed = profileSchema.safeParse(json);
  if (!parsed.success)
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: ${parsed.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}.`,
    );
  return parsed.data;
}

/**
 * One line for a banner or `doctor`: the settings the simulator follows.
 * @example describeSettings(settingsOf(DOCS_PROFILE)) // 'channel 3 attempts 3000 ms apart; bot 3 attempts ...'
 */
export function describeSettings(s: SimulatorSettings): string {
  const policy = (p: DeliveryPolicy) =>
    `${p.attempts} attempts ${p.intervalMs} ms apart, ${p.attemptTimeoutMs} ms each`;
  return [
    `channel ${policy(s.channelPolicy)}`,
    `bot ${policy(s.botPolicy)}, hand-over at ${s.botPolicy.failAfterMs} ms, events ${s.botEvents}`,
    `keep-alive ${(s.keepAliveTimeoutMs ?? DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs) / 1000} s`,
    ...(s.attributeCallsPerHour === undefined
      ? []
      : [`setClientAttributes ${s.attributeCallsPerHour}/h`]),
  ].join('; ');
}
