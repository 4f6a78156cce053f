/** The body of `doctor` (imported lazily): each check is data; render prints ✓ / ✗ / !. */
import sea from 'node:sea';
import { describeSettings, loadProfile, settingsOf } from '../../conversation/record/profile.js';
import { SvcError, errorText } from '../../errors.js';
import { getChannelStatus } from '../../roles/integrator/index.js';
import { loadConfig } from '../config-file.js';
import type { CliContext } from '../context.js';
import {
  checkConfigValues,
  globalFlagOnlyProblem,
  inspectOptions,
  sectionProblems,
  unknownKeyProblem,
  unknownKeysOf,
} from '../options/resolve.js';
import { doctorOptions } from './doctor-options.js';
import { formatCheck, type CheckEvent } from '../render/doctor.js';
import { createOutput } from '../render/output.js';
import { redactChannelUrl } from './config-run.js';
import { plural } from '../../plural.js';

export const MIN_NODE = [20, 19] as const;

/**
 * The Node that runs svc-cli; in the single binary, the one built into it (a CI image with no
 * node on its PATH read "Node 20.20.2" as a node it did not have).
 * @example checkNodeVersion('20.18.1').ok // false
 */
export function checkNodeVersion(version: string, embedded = false): CheckEvent {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    type: 'check',
    name: 'node',
    status: ok ? 'pass' : 'fail',
    detail: embedded
      ? `Node ${version}, built into this single binary (no node on the PATH is needed)`
      : `Node ${version} (svc-cli needs >= ${MIN_NODE.join('.')})`,
  };
}

function checkConfig(ctx: CliContext, flags: Record<string, unknown>): CheckEvent[] {
  let loaded;
  try {
    loaded = loadConfig({ flags, cwd: ctx.cwd, unknownKeys: unknownKeysOf });
  } catch (error) {
    const message = error instanceof SvcError ? error.message : String(error);
    return [{ type: 'check', name: 'config', status: 'fail', detail: message }];
  }
  if (loaded.file === undefined) {
    return [
      {
        type: 'check',
        name: 'config',
        status: 'pass',
        detail: 'no svc.config.json (optional; svc-cli init writes one)',
      },
    ];
  }
  const checked = checkConfigValues({ version: 1, ...loaded.values });
  const checks: CheckEvent[] = [
    checked.problems.length === 0
      ? { type: 'check', name: 'config', status: 'pass', detail: `${loaded.file} is valid` }
      : {
          type: 'check',
          name: 'config',
          status: 'fail',
          detail: `${loaded.file}: ${checked.problems.join('; ')}`,
        },
  ];
  for (const { key, near } of checked.unknown) {
    checks.push({
      type: 'check',
      name: 'config',
      status: 'warn',
      detail: globalFlagOnlyProblem(key) ?? unknownKeyProblem(key, near),
    });
  }
  // the warnings every command prints of its own section, for all of them
  for (const problem of sectionProblems(loaded))
    checks.push({ type: 'check', name: 'config', status: 'warn', detail: problem });
  return checks;
}

const reasonOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  return cause?.code ?? cause?.message ?? errorText(error);
};

/** What each configured endpoint is, in words (the check's name stays the key's). */
const ENDPOINT_WORDS: Readonly<Record<string, string>> = {
  integrator: 'your integrator',
  botProvider: 'your bot provider',
  hook: 'your hook receiver',
  widget: 'the widget page',
};

async function probe(name: string, url: string, timeoutMs: number): Promise<CheckEvent> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return {
      type: 'check',
      name,
      status: 'pass',
      detail: `${url} answers (HTTP ${response.status})`,
    };
  } catch (error) {
    // a sentence, as the channel's check gives: what failed, and what to look at
    const what = ENDPOINT_WORDS[name] ?? `the ${name} endpoint`;
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return {
      type: 'check',
      name,
      status: 'unreachable',
      detail: timedOut
        ? `${url}: no answer within ${timeoutMs} ms; check that ${what} answers requests (--timeout waits longer)`
        : `${url}: could not connect (${reasonOf(error)}); check the URL and that ${what} is up`,
    };
  }
}

async function probeChannel(url: string, timeoutMs: number, shown: string): Promise<CheckEvent> {
  try {
    const status = await getChannelStatus({ channelUrl: url, timeoutMs });
    return {
      type: 'check',
      name: 'channel',
      status: 'pass',
      detail: `${shown}/status answers ${status.body.trim()} (${status.availability})`,
    };
  } catch (error) {
    const e = error instanceof SvcError ? error : undefined;
    return {
      type: 'check',
      name: 'channel',
      status: e?.category === 'network' ? 'unreachable' : 'fail',
      // the error's own hint ("Check --channel-url and that the platform is up."), as the
      // other URL lines end with what to look at
      detail: `${shown}/status: ${e ? e.message : String(error)}${e?.hint ? ` ${e.hint}` : ''}`,
    };
  }
}

/** The profile `platform` and `replay` would follow here, and what it changes over the spec. */
async function checkProfile(
  ctx: CliContext,
  option: { value?: unknown; raw?: unknown; source: string } | undefined,
): Promise<CheckEvent> {
  const name = typeof option?.value === 'string' ? option.value : 'spec';
  const from = option && option.source !== 'default' ? ` (from ${option.source})` : ' (default)';
  try {
    const settings = settingsOf(await loadProfile(name, ctx.cwd));
    return {
      type: 'check',
      name: 'profile',
      status: 'pass',
      detail: `${name}${from}: ${describeSettings(settings)}`,
    };
  } catch (error) {
    return {
      type: 'check',
      name: 'profile',
      status: 'fail',
      detail: error instanceof SvcError ? error.message : String(error),
    };
  }
}

/**
 * Runs every check; returns 0, 1 (a check failed) or 3 (only reachability failed).
 * @example await runDoctor(ctx, { timeout: '500' });
 */
export async function runDoctor(ctx: CliContext, flags: Record<string, unknown>): Promise<number> {
  const out = createOutput(ctx, { json: Boolean(flags.json) });
  const checks: CheckEvent[] = [
    checkNodeVersion(process.versions.node, sea.isSea()),
    ...checkConfig(ctx, flags),
  ];
  const urls = ['channelUrl', 'integratorUrl', 'botProviderUrl', 'hookUrl', 'widgetUrl'];
  let inspected: ReturnType<typeof inspectOptions>['options'] = [];
  try {
    inspected = inspectOptions(doctorOptions, { flags, env: ctx.env, cwd: ctx.cwd }).options;
  } catch {
    // the config check above already reports an unreadable file
  }
  const timeout = inspected.find((o) => o.spec.key === 'timeout');
  if (timeout?.problem) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --timeout "${String(timeout.raw)}": ${timeout.problem}.`,
    );
  }
  const timeoutMs = typeof timeout?.value === 'number' ? timeout.value : 2000;
  const merged = {
    values: Object.fromEntries(
      inspected.map((o) => [o.spec.key, o.problem ? o.raw : o.value]),
    ) as Record<string, unknown>,
  };
  const probes: Promise<CheckEvent>[] = [];
  let configured = 0;
  for (const key of urls) {
    const url = merged.values[key];
    if (typeof url !== 'string') continue;
    configured++;
    if (!URL.canParse(url)) {
      checks.push({
        type: 'check',
        name: key === 'channelUrl' ? 'channel' : key.replace(/Url$/, ''),
        status: 'fail',
        detail: `${key} "${url}" is not a URL`,
      });
      continue;
    }
    const shown = key === 'channelUrl' && !flags.showSecrets ? redactChannelUrl(url) : url;
    probes.push(
      key === 'channelUrl'
        ? probeChannel(url, timeoutMs, shown)
        : probe(key.replace(/Url$/, ''), url, timeoutMs),
    );
  }
  if (configured === 0) {
    checks.push({
      type: 'check',
      name: 'urls',
      status: 'warn',
      detail: 'no URL configured to check (channelUrl, integratorUrl, ...)',
    });
  }
  checks.push(
    await checkProfile(
      ctx,
      inspected.find((o) => o.spec.key === 'profile'),
    ),
  );
  checks.push(...(await Promise.all(probes)));
  for (const check of checks) out.event(check, formatCheck);
  // a closing line, and one NDJSON summary with --json
  const count = (status: CheckEvent['status']) => checks.filter((c) => c.status === status).length;
  const summary = {
    type: 'summary',
    passed: count('pass'),
    warnings: count('warn'),
    failed: count('fail'),
    unreachable: count('unreachable'),
  };
  out.event(
    summary,
    (e, c) =>
      `\n${(e.failed > 0 || e.unreachable > 0 ? c.red : e.warnings > 0 ? c.yellow : c.green)(
        `${e.passed} passed, ${plural(e.warnings, 'warning')}, ${e.failed} failed, ${e.unreachable} unreachable`,
      )}`,
  );
  if (checks.some((c) => c.status === 'fail')) return 1;
  if (checks.some((c) => c.status === 'unreachable')) return 3;
  return 0;
}
