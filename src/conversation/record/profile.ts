/**
 * Learning a profile from recordings (`record profile`) and loading one by name or file
 * (`--profile`); the format, the built-in profiles and the simulator settings a profile gives
 * are in src/platform/profile.ts.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { closestNames } from '../../suggest.js';
import { SvcError, systemReason } from '../../errors.js';
import { unreadableFile } from '../../io/input-file.js';
import { versionProblem, type VersionedKind } from '../../versioned.js';
import {
  BUILT_IN_PROFILES,
  profileSchema,
  type Profile,
  type ProfileFigure,
} from '../../platform/profile.js';
import type { Figure, KindObservation, RecordingObservation, Tally } from './observe.js';
import { issueLine } from '../../issue-words.js';

const PROFILE_KIND: VersionedKind = {
  shape: 'a profile is one JSON object with "version": 1 and its figures',
  example:
    'svc-cli record profile <recording> --out <file> writes one; the format is schemas/profile.schema.json',
};

/** Where a person finds what a profile holds, for a file that is not one. */
const PROFILE_FORMAT_HINT =
  "svc-cli record profile <recording> --out <file> writes a profile; the format is the svc-cli package's schemas/profile.schema.json (node_modules/svc-cli/schemas/ in a project).";

export {
  BUILT_IN_PROFILES,
  DOCS_PROFILE,
  SPEC_PROFILE,
  coreOptionsOf,
  describeSettings,
  formsOf,
  profileSchema,
  settingsOf,
  type Profile,
  type ProfileFigure,
  type SimulatorSettings,
} from '../../platform/profile.js';

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
  const out: NonNullable<Profile['channel']> = {};
  if (given.length > 0) out.attempts = { value: Math.max(...given), observations: gaveUp };
  const interval = fig(merge(intervals));
  if (interval) out.intervalMs = interval;
  const schedule = interval ? unevenSchedule(kinds, interval.value) : undefined;
  if (schedule) out.scheduleMs = schedule;
  const timeout = fig(merge(kinds.map((k) => k.timeouts)));
  if (timeout) out.attemptTimeoutMs = timeout;
  const failAfter = fig(merge(kinds.map((k) => k.series?.gaveUpAfter)));
  if (failAfter) out.failAfterMs = failAfter;
  return out;
}

/** Beyond this an attempt's start is off the even schedule (record diff's default tolerance). */
const SCHEDULE_TOLERANCE_MS = 250;

/**
 * When each attempt started after the first (0 first), when the gaps are not even: a platform
 * that resends at 3 s, then 10 s, is followed as it is, not at the mean interval.
 */
function unevenSchedule(kinds: KindObservation[], intervalMs: number) {
  const offsets = new Map<number, Figure>();
  for (const k of kinds)
    for (const [n, f] of Object.entries(k.series?.offsets ?? {}))
      offsets.set(Number(n), merge([offsets.get(Number(n)), f])!);
  const value = [0];
  let observations = Infinity;
  for (let n = 2; offsets.has(n); n++) {
    const f = offsets.get(n)!;
    value.push(round(f.mean));
    observations = Math.min(observations, f.n);
  }
  const even = value.every((at, i) => Math.abs(at - i * intervalMs) <= SCHEDULE_TOLERANCE_MS);
  return even || value.length < 2 ? undefined : { value, observations };
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
  const docsHooks = all.filter(
    (k) => k.kind === 'hook.client_updated' || k.kind === 'hook.client_attribute_updated',
  );
  if (docsHooks.length > 0)
    profile.hooks = {
      events: { value: 'docs', observations: docsHooks.reduce((s, k) => s + k.count, 0) },
    };
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
          direction: k.direction,
          statuses: k.statuses,
          fields: k.fields,
          // a peer's payload: what the platform answered is the platform's own; the
          // simulator reshapes its success answers by them, so only 2xx answers teach them
          // (an error answer's `error` object is no field of a success answer)
          ...(k.direction === 'in' && k.answered.success > 0
            ? { answerFields: k.responseFields }
            : {}),
          // the platform's own answers' Keep-Alive: an answer to what it sent is the peer's
          // server's (record diff leaves it out alike), and the peer's own recording of it
          // (listen, hook-target) has no headers
          ...(k.direction === 'in' && sum(k.headers.keepAlive) > 0
            ? { keepAlive: k.headers.keepAlive }
            : {}),
        },
      ]),
  );
  return profile;
}

/**
 * A profile by name (`spec`, `docs`) or file; a file that is not a profile is an input error
 * naming what is wrong.
 * @example const profile = await loadProfile('docs', process.cwd());
 */
export async function loadProfile(nameOrFile: string, cwd: string): Promise<Profile> {
  if (nameOrFile === 'spec' || nameOrFile === 'docs') return BUILT_IN_PROFILES[nameOrFile];
  let text: string;
  try {
    text = await readFile(resolve(cwd, nameOrFile), 'utf8');
  } catch (error) {
    // `Docs`, `spek`: a built-in name mistyped reads as a missing file
    // (a path or a file name, `nope.json`, meant a file: no built-in name is suggested)
    const meant =
      (error as NodeJS.ErrnoException).code === 'ENOENT' && !/[./\\]/.test(nameOrFile)
        ? closestNames(nameOrFile, ['spec', 'docs'], { maxDistance: 2 })
        : [];
    const named = { kind: 'profile', given: nameOrFile, cwd, code: 'SVC_E_PROFILE' } as const;
    throw unreadableFile({ ...named, meant: meant[0] }, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // a recording given for the profile learned from it: NDJSON's second line ends the JSON
    const recording = /^\s*\{"type":"exchange"/.test(text) || /^\s*\{\s*"log"\s*:/.test(text);
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: ${recording ? 'it is a recording, not a profile' : systemReason(error)}.`,
      recording
        ? `Learn a profile from it first: svc-cli record profile ${nameOrFile} --out real.profile.json, then --profile real.profile.json.`
        : 'Give spec, docs, or a file written by `svc-cli record profile`.',
    );
  }
  const wrong = versionProblem(json, 1, PROFILE_KIND);
  if (wrong)
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: ${wrong.problem}.`,
      wrong.hint,
    );
  const parsed = profileSchema.safeParse(json);
  if (!parsed.success)
    throw new SvcError(
      'SVC_E_PROFILE',
      `Could not read the profile ${nameOrFile}: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => issueLine(i))
        .join('; ')}.`,
      PROFILE_FORMAT_HINT,
    );
  return parsed.data;
}
