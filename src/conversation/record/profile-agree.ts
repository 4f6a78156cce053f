/**
 * Whether the recordings `record profile` is given describe one platform: a profile is their
 * figures averaged, so the real platform's recording beside the simulator's (as `record diff`
 * takes them) makes a schedule neither has. Each file's own profile is compared figure by
 * figure, and a recording of svc-cli's own simulator is named.
 */
import { attemptOffsetMs } from '../../contract/timing.js';
import { settingsOf, type Profile, type ProfileFigure } from '../../platform/profile.js';

/** Timing figures closer than this agree (record diff's default tolerance). */
const TIMING_TOLERANCE_MS = 250;

/** One reason the profile learned from these recordings may not be the real platform's. */
export interface ProfileWarning {
  /**
   * `disagree`: the files' figures differ; `simulator`: a file is svc-cli's simulator's;
   * `inconsistent`: the profile's own figures contradict each other
   */
  reason: 'disagree' | 'simulator' | 'inconsistent';
  /** the figure, as the profile names it: `channel.intervalMs` */
  figure?: string;
  /** the files it is about, as the user named them */
  files: string[];
  /** each file's value of the figure, in the order of `files` */
  values?: number[];
  message: string;
}

/** The figures compared, with whether they are times (tolerance) or counts (exact). */
const FIGURES: ReadonlyArray<[string, (p: Profile) => ProfileFigure<number> | undefined, boolean]> =
  [
    ['channel.attempts', (p) => p.channel?.attempts, false],
    ['channel.intervalMs', (p) => p.channel?.intervalMs, true],
    ['channel.attemptTimeoutMs', (p) => p.channel?.attemptTimeoutMs, true],
    ['channel.failAfterMs', (p) => p.channel?.failAfterMs, true],
    ['bot.attempts', (p) => p.bot?.attempts, false],
    ['bot.intervalMs', (p) => p.bot?.intervalMs, true],
    ['bot.attemptTimeoutMs', (p) => p.bot?.attemptTimeoutMs, true],
    ['bot.failAfterMs', (p) => p.bot?.failAfterMs, true],
    ['keepAliveMs', (p) => p.keepAliveMs, true],
  ];

const HINT = "profile the real platform's recordings alone (record diff compares two)";

/**
 * The warnings for a profile learned from `files`, given each file's own profile and whether
 * it holds records only the simulator makes.
 * @example checkProfileSources([{ file: 'real.ndjson', profile: p1 }, { file: 'sim.ndjson', profile: p2, simulator: true }])
 */
export function checkProfileSources(
  sources: ReadonlyArray<{ file: string; profile: Profile; simulator?: boolean }>,
): ProfileWarning[] {
  const warnings: ProfileWarning[] = [];
  for (const s of sources.filter((x) => x.simulator === true))
    warnings.push({
      reason: 'simulator',
      files: [s.file],
      message: `${s.file} was recorded by svc-cli's own simulator (it has /_sim/ control calls or in-process replay exchanges): its figures are the simulator's, not a platform's; ${HINT}`,
    });
  if (sources.length < 2) return warnings;
  for (const [figure, read, timing] of FIGURES) {
    const seen = sources.flatMap((s) => {
      const f = read(s.profile);
      return f ? [{ file: s.file, value: f.value }] : [];
    });
    if (seen.length < 2) continue;
    const values = seen.map((x) => x.value);
    const spread = Math.max(...values) - Math.min(...values);
    if (spread <= (timing ? TIMING_TOLERANCE_MS : 0)) continue;
    warnings.push({
      reason: 'disagree',
      figure,
      files: seen.map((x) => x.file),
      values,
      message: `the recordings disagree on ${figure}: ${seen.map((x) => `${x.file} ${x.value}`).join(', ')}${timing ? ` (tolerance ${TIMING_TOLERANCE_MS} ms)` : ''}; the profile averages them, which no platform did; ${HINT}`,
    });
  }
  return warnings;
}

/**
 * The warnings for a profile whose give-up comes before its own last attempt has ended (a
 * hand-over at 4.5 s beside two bot attempts of 3 s): the simulator cannot give up sooner
 * than its last attempt ends, and a replay would be held to the earlier time. Series cut
 * short at a recording's end are taken as given up after fewer attempts, and pull the
 * learned give-up down.
 * @example checkProfileFigures(learnProfile(seen, 'real'), ['real.ndjson'])
 */
export function checkProfileFigures(profile: Profile, files: string[]): ProfileWarning[] {
  const settings = settingsOf(profile);
  const parts = [
    ['channel', profile.channel, settings.channelPolicy],
    ['bot', profile.bot, settings.botPolicy],
  ] as const;
  const warnings: ProfileWarning[] = [];
  for (const [name, learned, policy] of parts) {
    const failAfter = learned?.failAfterMs?.value;
    if (failAfter === undefined) continue;
    const lastStart = attemptOffsetMs(policy, policy.attempts);
    const lastEnd = lastStart + policy.attemptTimeoutMs;
    if (failAfter + TIMING_TOLERANCE_MS >= lastEnd) continue;
    warnings.push({
      reason: 'inconsistent',
      figure: `${name}.failAfterMs`,
      files,
      message: `the profile's ${name}.failAfterMs (${failAfter} ms) comes before its last attempt ends: attempt ${policy.attempts} of ${policy.attempts} starts at ${lastStart} ms and waits ${policy.attemptTimeoutMs} ms, to ${lastEnd} ms; series cut short when a recording stopped count as given up after fewer attempts: record whole series, or set ${name}.failAfterMs in the profile by hand`,
    });
  }
  return warnings;
}
