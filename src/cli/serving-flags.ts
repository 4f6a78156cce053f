/**
 * What every serving role's flags share (`listen`, `hook-target`, `bot-sim`): the fault plan
 * from `--fault-plan` plus the flags on top of it, and the `--record` journal.
 */
import { resolve } from 'node:path';
import { SvcError, systemReason } from '../errors.js';
import { faultPlanText, loadFaultPlan, type Fault, type FaultPlan } from '../faults/index.js';
import { writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { isNonLoopbackHost } from '../http/server.js';
import type { ControlAccessOptions } from '../platform/control-access.js';
import {
  generateLoopbackCertificate,
  loadCertificate,
  type TlsServerOptions,
} from '../http/tls.js';
import {
  createJournal,
  type Journal,
  type JournalOptions,
  type Redactor,
  type RecordingStatus,
  type RecordSync,
} from '../journal/index.js';
import { EXIT_CODES } from '../errors.js';
import { holdAnswersFor } from '../http/response-batch.js';
import { onConnectionRefused, refusedConnections } from '../http/connection-refusals.js';
import { describeFileLimit, fileLimit } from '../io/file-limit.js';
import type { CliContext } from './context.js';
import type { Output } from './render/output.js';
import type { ChalkInstance } from 'chalk';
import { compact } from '../compact.js';
import { createClock } from '../clock.js';

export interface FaultFlags {
  faultPlan?: string | undefined;
  failFirst?: number | undefined;
  delay?: number | undefined;
  fault?: Fault | undefined;
  faultRate?: number | undefined;
  seed?: number | undefined;
}

/**
 * The plan file first, then each flag given on top of it.
 * @example await buildFaultPlan(ctx, { failFirst: 2 }) // { failFirst: 2 }
 */
export async function buildFaultPlan(
  ctx: Pick<CliContext, 'cwd'>,
  o: FaultFlags,
): Promise<FaultPlan> {
  const plan: FaultPlan = o.faultPlan ? await loadFaultPlan(o.faultPlan, ctx.cwd) : {};
  if (o.failFirst !== undefined) plan.failFirst = o.failFirst;
  if (o.delay !== undefined) plan.delayMs = o.delay;
  if (o.fault !== undefined) plan.fault = o.fault;
  if (o.faultRate !== undefined) plan.rate = o.faultRate;
  if (o.seed !== undefined) plan.seed = o.seed;
  if (plan.rate !== undefined && plan.fault === undefined) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      'Could not use --fault-rate: it says how often --fault applies, and no --fault is given.',
      'Example: --fault status:503 --fault-rate 0.2 --seed 7',
    );
  }
  return plan;
}

/**
 * The banner's word on a fault plan given at start, in the flags' terms, so a simulator that
 * answers 503 on purpose says so before the first request; undefined for none.
 * @example faultsBannerText({ fault: { kind: 'status', status: 503 }, rate: 0.3, seed: 7 }) // '--fault status:503 --fault-rate 0.3 --seed 7'
 */
export function faultsBannerText(plan: FaultPlan): string | undefined {
  const { fault, failWith, sequence, failFirst, rate, seed, delayMs, ...rest } =
    faultPlanText(plan);
  const parts = [
    failFirst === undefined ? '' : `--fail-first ${failFirst}`,
    failWith === undefined ? '' : `(failing with ${failWith})`,
    fault === undefined ? '' : `--fault ${fault}`,
    rate === undefined ? '' : `--fault-rate ${rate}`,
    seed === undefined ? '' : `--seed ${seed}`,
    delayMs === undefined ? '' : `--delay ${delayMs}ms`,
    sequence === undefined ? '' : `sequence ${sequence.join(', ')}`,
    // fields a plan file adds beyond the flags, as the file writes them
    ...Object.entries(rest).map(([key, value]) => `${key} ${JSON.stringify(value)}`),
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * A role's banner (listen, hook-target) with a last line naming the faults it serves from the
 * first request, as the platform's banner does; the banner alone without a plan. `--fail-first`
 * counts attempts per message (listen) or per distinct event (hook-target), so the line says
 * so: "from the first request" alone read as if only the first request failed.
 * @example withFaultsLine(format, { failFirst: 1 }, 'distinct event') // ... faults --fail-first 1 (the first attempt of each distinct event fails, from the first request)
 */
export function withFaultsLine<E>(
  format: (event: E, c: ChalkInstance) => string,
  plan: FaultPlan | undefined,
  attemptsOf: 'message' | 'distinct event',
): (event: E, c: ChalkInstance) => string {
  const text = plan && faultsBannerText(plan);
  if (text === undefined) return format;
  const n = plan?.failFirst;
  const when =
    n === undefined
      ? 'from the first request'
      : `${n === 1 ? 'the first attempt' : `the first ${n} attempts`} of each ${attemptsOf} ${n === 1 ? 'fails' : 'fail'}, from the first request`;
  return (event, c) => `${format(event, c)}\n  ${c.yellow(`faults ${text}`)} ${c.dim(`(${when})`)}`;
}

/**
 * The `listening` event with the faults given at start (`{ flags: '--fail-first 2' }`), so
 * `--json` says what its banner's faults line does; the event as it is without a plan.
 * @example listeningWithFaults({ type: 'listening', url }, { failFirst: 2 }).faults // { flags: '--fail-first 2' }
 */
export function listeningWithFaults<E extends object>(
  listening: E,
  plan: FaultPlan | undefined,
): E & { faults?: { flags: string } } {
  const flags = plan && faultsBannerText(plan);
  return flags === undefined ? listening : { ...listening, faults: { flags } };
}

/** What a serving command does with its `--record` file: when it writes, and when it cannot. */
export interface RecordPolicy {
  /** `--record-sync` (not for the proxy) */
  recordSync?: RecordSync | undefined;
  /** `--record-on-error` */
  recordOnError: 'keep-serving' | 'exit';
  /** prints the one line that says the recording stopped (stderr) */
  note: (line: string) => void;
  /** the same as an event, for --json (`{"type":"recording-stopped",...}`) */
  event?: (event: RecordingStoppedEvent) => void;
}

/** What --json prints once when the `--record` file can no longer be written. */
export interface RecordingStoppedEvent extends RecordingStatus {
  type: 'recording-stopped';
  /** what the command does now */
  then: 'keep-serving' | 'exit';
  /** the exit code the run will end with */
  exitCode: number;
}

/**
 * The line a stopped recording prints.
 * @example recordingStoppedLine(status, 'keep-serving', 'run.ndjson')
 */
export function recordingStoppedLine(
  status: RecordingStatus,
  then: 'keep-serving' | 'exit',
  shown: string,
): string {
  const reason = status.failure?.reason ?? 'a write failed';
  const records = `${status.written} record${status.written === 1 ? '' : 's'}`;
  const what =
    then === 'exit' ? 'svc-cli exits now (--record-on-error exit)' : 'the simulator keeps serving';
  const way =
    status.failure?.code === 'ENOSPC' || status.failure?.code === 'EDQUOT'
      ? 'free space or record to another disk, then run it again'
      : 'record to another file, then run it again';
  return `recording stopped: ${reason} after ${records}; ${what}. ${shown} holds those ${records}, each line whole (${status.failure?.code ?? 'error'}); ${way}. Exit code ${EXIT_CODES.system} at the end.`;
}

/**
 * A journal appended to `--record` when given (relative to the cwd), in memory otherwise; a
 * file that cannot be opened (no such folder, a folder) is an input error, not a crash. With
 * a policy: `--record-sync` holds every batch of answers until the journal has written the
 * turn's records, and a write that fails prints one line, makes the exit code 5 and, with
 * `--record-on-error exit`, stops the command at once.
 */
export function createRecordJournal(
  ctx: Pick<CliContext, 'cwd'> & Partial<Pick<CliContext, 'interrupt' | 'verdictAfterSignal'>>,
  record: string | undefined,
  options: Omit<JournalOptions, 'file' | 'sync' | 'onStop' | 'onRepair'> = {},
  policy?: RecordPolicy,
): Journal {
  if (record === undefined) return createJournal(options);
  const sync = policy?.recordSync ?? 'batched';
  const onStop = (status: RecordingStatus): void => {
    if (!policy) return;
    const then = policy.recordOnError;
    ctx.verdictAfterSignal = EXIT_CODES.system;
    policy.note(recordingStoppedLine(status, then, record));
    policy.event?.({ type: 'recording-stopped', ...status, then, exitCode: EXIT_CODES.system });
    if (then === 'exit') ctx.interrupt?.();
  };
  let journal: Journal;
  try {
    const onRepair = (bytes: number): void =>
      policy?.note(
        `${record} ended in a cut line (${bytes} bytes: an earlier run was killed while it wrote); it was dropped, and the records before it are kept.`,
      );
    journal = createJournal({
      ...options,
      file: resolve(ctx.cwd, record),
      sync,
      onStop,
      onRepair,
    });
  } catch (error) {
    throw new SvcError(
      'SVC_E_RECORD',
      `Could not open the record file ${record}: ${systemReason(error)}.`,
      'Give a file in a folder that exists, e.g. --record session.ndjson',
    );
  }
  if (sync !== 'batched') {
    const release = holdAnswersFor(() => journal.flush());
    const close = journal.close.bind(journal);
    journal.close = () => {
      release();
      close();
    };
  }
  return journal;
}

/** The role's journal: in memory, and appended to `--record` when given. */
export function openRecordJournal(
  ctx: Pick<CliContext, 'cwd'> & Partial<Pick<CliContext, 'interrupt' | 'verdictAfterSignal'>>,
  record: string | undefined,
  showSecrets: boolean,
  redact?: Redactor,
  policy?: RecordPolicy,
): Journal {
  return createRecordJournal(
    ctx,
    record,
    { keep: 1000, showSecrets, ...(redact ? { redact } : {}) },
    policy,
  );
}

export interface TlsFlags {
  tls: boolean;
  cert?: string | undefined;
  key?: string | undefined;
  tlsCertOut?: string | undefined;
}

/**
 * What a serving command serves HTTPS with: `--cert`/`--key`, or a certificate
 * generated at start with `--tls` (written to `--tls-cert-out`); undefined for plain HTTP.
 * `note` gets one line naming the certificate's fingerprint and where its PEM is.
 * @example const tls = await serverTls(ctx, options, (line) => out.note(line));
 */
export async function serverTls(
  ctx: Pick<CliContext, 'cwd'>,
  o: TlsFlags,
  note: (line: string) => void,
): Promise<TlsServerOptions | undefined> {
  if ((o.cert === undefined) !== (o.key === undefined)) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not serve HTTPS: ${o.cert === undefined ? '--key' : '--cert'} is given without ${o.cert === undefined ? '--cert' : '--key'}.`,
      'Give both --cert <pem> and --key <pem>, or --tls alone for a generated certificate.',
    );
  }
  if (o.cert !== undefined && o.key !== undefined) {
    const tls = await loadCertificate(o.cert, o.key, ctx.cwd);
    note(`https: certificate ${o.cert} (SHA-256 ${tls.fingerprint})`);
    return tls;
  }
  if (!o.tls) {
    if (o.tlsCertOut !== undefined) {
      throw new SvcError(
        'SVC_E_OPTIONS',
        'Could not use --tls-cert-out: it writes the certificate --tls generates, and --tls is not given.',
        'Example: --tls --tls-cert-out svc-cert.pem',
      );
    }
    return undefined;
  }
  const tls = await generateLoopbackCertificate();
  let where = 'pass --tls-cert-out <file> to write it for your clients';
  if (o.tlsCertOut !== undefined) {
    const file = resolve(ctx.cwd, o.tlsCertOut);
    try {
      await writeFile(file, tls.cert);
    } catch (error) {
      throw new SvcError(
        'SVC_E_TLS_FILE',
        `Could not write --tls-cert-out ${o.tlsCertOut}: ${systemReason(error)}.`,
      );
    }
    where = `PEM in ${o.tlsCertOut}: trust it with --ca ${o.tlsCertOut} or NODE_EXTRA_CA_CERTS`;
  }
  note(
    `https: certificate generated for 127.0.0.1, ::1 and localhost (SHA-256 ${tls.fingerprint}); ${where}`,
  );
  return tls;
}

export interface AccessFlags {
  host?: string | undefined;
  allowOrigin?: readonly string[] | undefined;
  controlToken?: string | undefined;
}

/** The control API's access as the flags give it, and whether its token was generated here. */
export interface ControlAccess {
  access: ControlAccessOptions;
  /** the token, when one is required */
  token?: string;
  /** true: generated at start (the banner prints it once); false: --control-token gave it */
  generated: boolean;
}

/**
 * `--allow-origin` (each an origin: scheme, host, port) and the control token: `--control-token`,
 * else a random one when `--host` is not loopback (docs/SECURITY.md).
 * @example controlAccessOf({ host: '0.0.0.0', allowOrigin: [] }).generated // true
 */
export function controlAccessOf(o: AccessFlags): ControlAccess {
  const allowOrigins = (o.allowOrigin ?? []).map(originOf);
  const given = o.controlToken === '' ? undefined : o.controlToken;
  const token =
    given ??
    (o.host !== undefined && isNonLoopbackHost(o.host)
      ? randomBytes(24).toString('base64url')
      : undefined);
  const withToken = compact({ token });
  return {
    access: { allowOrigins, ...withToken },
    ...withToken,
    generated: token !== undefined && given === undefined,
  };
}

/**
 * An `--allow-origin` entry as browsers send Origin: `http://localhost:5173`, no path; `null`
 * (or `file://`, what such a page's `location.origin` reads) for a page opened from a file,
 * whose requests carry `Origin: null`.
 */
function originOf(entry: string): string {
  if (entry === 'null' || /^file:\/\//i.test(entry)) return 'null';
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.length > 1)
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --allow-origin ${entry}: it takes an origin, the scheme, host and port of a page.`,
      'Example: --allow-origin http://localhost:5173; a page opened from a file: --allow-origin null',
    );
  return url.origin;
}

/**
 * The record policy of a serving command's flags: its line on stderr, and with --json the
 * `recording-stopped` event on stdout too.
 * @example openRecordJournal(ctx, o.record, o.showSecrets, undefined, recordPolicyOf(o, out));
 */
export function recordPolicyOf(
  o: { recordSync?: RecordSync | undefined; recordOnError: 'keep-serving' | 'exit' },
  out: Pick<Output, 'json' | 'note' | 'event'>,
): RecordPolicy {
  return {
    recordSync: o.recordSync,
    recordOnError: o.recordOnError,
    note: (line) => out.note(line),
    event: (event) => {
      if (out.json) out.event(event);
    },
  };
}

/**
 * Warns once when connections are refused for want of file descriptors (or beyond the cap),
 * naming the limit and how to raise it; `summary()` is the line for the end of the run.
 * Everything it prints is built from what was read at start: no file is opened on this path.
 * @example const refusals = watchRefusals((line) => out.note(line)); ... out.note(refusals.summary() ?? '');
 */
export function watchRefusals(note: (line: string) => void): {
  stop(): void;
  summary(): string | undefined;
} {
  const before = refusedConnections();
  const off = onConnectionRefused((refusal) => {
    if (refusal.total !== before + 1) return;
    note(
      refusal.reason === 'file-limit'
        ? `warning: refusing new connections beyond ${refusal.budget} open ones (open ones are served); ${describeFileLimit(fileLimit(), refusal.code ?? 'EMFILE')}`
        : `warning: refusing new connections beyond ${refusal.budget} open ones (open ones are served)`,
    );
  });
  return {
    stop: off,
    summary() {
      const refused = refusedConnections() - before;
      return refused === 0
        ? undefined
        : `${refused} connection${refused === 1 ? '' : 's'} refused (too many open at once; see the warning above)`;
    },
  };
}

/** The resolved flags `listen` and `hook-target` serve with, beside their own. */
export interface RoleServingFlags extends FaultFlags, TlsFlags {
  host: string;
  allowedHost?: readonly string[] | undefined;
  port: number;
  record?: string | undefined;
  showSecrets: boolean;
  bodyLimit: number;
  timeScale: number;
  recordSync?: RecordSync | undefined;
  recordOnError: 'keep-serving' | 'exit';
}

/**
 * What a role serves with from its shared flags: the fault plan, HTTPS, the `--record`
 * journal and a clock at `--time-scale`, after a warning when `--host` reaches beyond this
 * machine (`exposed` names what is exposed: "the receiver").
 * @example const serving = await roleServing(ctx, options, out, 'the endpoint');
 */
export async function roleServing(
  ctx: Pick<CliContext, 'cwd'> & Partial<Pick<CliContext, 'interrupt' | 'verdictAfterSignal'>>,
  o: RoleServingFlags,
  out: Pick<Output, 'json' | 'note' | 'event'>,
  exposed: string,
) {
  const plan = await buildFaultPlan(ctx, o);
  if (isNonLoopbackHost(o.host)) {
    out.note(
      `warning: --host ${o.host} exposes ${exposed} beyond this machine; it has no authentication (spec 5.4 shows none).`,
    );
  }
  const tls = await serverTls(ctx, o, (line) => out.note(line));
  const policy = recordPolicyOf(o, out);
  const journal = openRecordJournal(ctx, o.record, o.showSecrets, undefined, policy);
  return {
    tls,
    host: o.host,
    allowedHosts: o.allowedHost,
    port: o.port,
    plan,
    clock: createClock({ timeScale: o.timeScale }),
    journal,
    bodyLimit: o.bodyLimit,
  };
}
