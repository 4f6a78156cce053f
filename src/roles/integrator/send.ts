import type { Dispatcher } from 'undici';
import { createClock, type Clock } from '../../clock.js';
import type { ValidationResult } from '../../contract/types.js';
import { SvcError } from '../../errors.js';
import { getText, postJson, type PostOutcome } from '../../http/client.js';
import { svcRoleOf } from '../../http/role-header.js';
import type { Journal } from '../../journal/index.js';
import { checkKind } from './contract-check.js';
import { kindOfChannelMessage } from './kinds.js';
import { toRecordedVerdict, unknownKindVerdict } from './verdict.js';
import { plural } from '../../plural.js';
import { recordExchange } from '../../journal/index.js';

/** Default wait for the platform's reply; the spec gives none for this direction (assumed). */
export const DEFAULT_SEND_TIMEOUT_MS = 10_000;

export interface SendCustomerMessageOptions {
  /** `{base_url}/<random_string>/<channel_public_id>` (spec 4.1) */
  channelUrl: string;
  /** the customer message (spec 2.1, 2.3, 2.4), e.g. from `buildTextMessage` */
  payload: unknown;
  clock?: Clock;
  /** protocol ms for the whole exchange (default 10 s) */
  timeoutMs?: number;
  /** send even when the payload breaks the contract (to test the platform's handling) */
  force?: boolean;
  /** warnings count as errors */
  strict?: boolean;
  /** send with Transfer-Encoding: chunked */
  chunked?: boolean;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  journal?: Journal;
}

export interface SendResult {
  kind: string;
  verdict: ValidationResult;
  /** true when sent although the verdict is not ok (`force`) */
  forced: boolean;
  status: number;
  body: string;
  /** protocol ms from request to complete reply */
  latencyMs: number;
  wallMs: number;
  /** set when the platform did not accept the message (404 unknown channel, other statuses) */
  problem?: SvcError;
  /**
   * `force` sent a payload the contract check flagged and the platform refused it (4xx): the
   * answer a test of the platform's validation wants, said as information, not a failure
   */
  refusedAsExpected?: string;
}

/**
 * Validates a customer message, POSTs it to the channel URL (spec 4.1) and classifies the reply.
 * Throws `SvcError`: invalid payload (input, unless `force`), unreachable or timeout (network).
 * @example const r = await sendCustomerMessage({ channelUrl, payload: buildTextMessage({ sender: { id: 'c1' }, text: 'hi' }) });
 */
export async function sendCustomerMessage(
  options: SendCustomerMessageOptions,
): Promise<SendResult> {
  const url = checkChannelUrl(options.channelUrl);
  const kind = kindOfChannelMessage('customer', options.payload) ?? 'channel.customer.text';
  const verdict =
    kindOfChannelMessage('customer', options.payload) === undefined
      ? unknownKindVerdict(kind, '2.1', 'must be text, typein, typeout or a media type of spec 2.4')
      : checkKind(kind, options.payload, options.strict ? { strict: true } : {});
  const forced = !verdict.ok;
  if (forced && !options.force) {
    throw new SvcError(
      'SVC_E_INVALID_PAYLOAD',
      `Could not send: the payload breaks the contract (${plural(verdict.errors.length, 'error')}).`,
      'Fix the fields listed, or pass --force to send it anyway and watch how the platform handles it.',
      { details: { issues: [...verdict.errors, ...verdict.warnings] } },
    );
  }
  const body = JSON.stringify(options.payload);
  const clock = options.clock ?? createClock();
  const startedAt = clock.now();
  const outcome = await postJson({
    url,
    body,
    chunked: options.chunked ?? false,
    timeoutMs: options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS,
    clock,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  recordExchange(options.journal, {
    protocolMs: startedAt,
    iface: 'channel',
    direction: 'out',
    kind,
    request: { method: 'POST', url, body },
    ...outcomeFields(outcome),
    verdict: toRecordedVerdict(verdict),
    ...(forced ? { notes: ['sent with --force'] } : {}),
  });
  if (!outcome.ok)
    throw unreachable(
      'send the message',
      url,
      outcome,
      options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS,
    );
  const result: SendResult = {
    kind,
    verdict,
    forced,
    status: outcome.status,
    body: outcome.body,
    latencyMs: outcome.durationMs,
    wallMs: outcome.wallMs,
  };
  const problem = classifyStatus(outcome, 'send the message', options.channelUrl);
  if (!problem) return result;
  // a broken payload sent on purpose and refused: no support to call, that is the answer
  if (forced && problem.code === 'SVC_E_CHANNEL_STATUS' && outcome.status < 500)
    return {
      ...result,
      refusedAsExpected: `the platform refused the payload the contract check flagged (HTTP ${outcome.status}), as it should: sent with --force`,
    };
  return { ...result, problem };
}

export interface GetChannelStatusOptions {
  channelUrl: string;
  clock?: Clock;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  journal?: Journal;
}

export interface ChannelStatus {
  /** spec 3: body `1` = agents online, `0` = unavailable */
  availability: 'online' | 'offline';
  status: number;
  body: string;
  latencyMs: number;
  wallMs: number;
}

/**
 * GETs `<channelUrl>/status` (spec 4.1) and reads the body `0` / `1` (spec 3).
 * Throws `SvcError`: 404 or another body (contract), unreachable or timeout (network).
 * @example (await getChannelStatus({ channelUrl })).availability // 'online'
 */
export async function getChannelStatus(options: GetChannelStatusOptions): Promise<ChannelStatus> {
  const url = `${checkChannelUrl(options.channelUrl).replace(/\/+$/, '')}/status`;
  const clock = options.clock ?? createClock();
  const startedAt = clock.now();
  const outcome = await getText({
    url,
    timeoutMs: options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS,
    clock,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const text = outcome.ok ? outcome.body.trim() : '';
  const bodyOk = text === '0' || text === '1';
  recordExchange(options.journal, {
    protocolMs: startedAt,
    iface: 'channel',
    direction: 'out',
    kind: 'channel.status',
    request: { method: 'GET', url },
    ...outcomeFields(outcome),
    ...(outcome.ok && outcome.status === 200
      ? {
          verdict: {
            ok: bodyOk,
            errors: bodyOk ? [] : ['(body): must be 0 or 1 (spec 3)'],
            warnings: [],
          },
        }
      : {}),
  });
  if (!outcome.ok)
    throw unreachable(
      'read the channel status',
      url,
      outcome,
      options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS,
    );
  const problem = classifyStatus(outcome, 'read the channel status', options.channelUrl);
  if (problem) throw problem;
  if (!bodyOk) {
    throw new SvcError(
      'SVC_E_STATUS_BODY',
      `Could not read the channel status: the body is ${JSON.stringify(outcome.body.slice(0, 80))}, expected 0 or 1 (spec 3).`,
    );
  }
  return {
    availability: text === '1' ? 'online' : 'offline',
    status: outcome.status,
    body: outcome.body,
    latencyMs: outcome.durationMs,
    wallMs: outcome.wallMs,
  };
}

function checkChannelUrl(channelUrl: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(channelUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new SvcError(
      'SVC_E_CHANNEL_URL',
      `Could not use the channel URL ${JSON.stringify(channelUrl)}: it is not an http(s) URL.`,
      'The platform shows it in the channel settings: {base_url}/<random_string>/<channel_public_id>.',
    );
  }
  return channelUrl;
}

/**
 * A hint for a --channel-url that is the status URL (`<channel URL>/status`, as the banner
 * and the channel settings show both): the usual copy slip behind a 404 or a 405.
 */
function hintStatusUrlSlip(channelUrl: string): string | undefined {
  return /\/status\/*$/.test(channelUrl)
    ? `--channel-url ends in /status, which is the channel's status URL: use it without /status (${channelUrl.replace(/\/status\/*$/, '')}).`
    : undefined;
}

/** The message of svc-cli proxy's error body (`{"error":{"code","message"}}`), if it is one. */
function proxyMessageOf(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** spec 4.1: 404 for an unknown public id or a wrong random string; other non-200: contact support. */
function classifyStatus(
  { status, body, headers }: Extract<PostOutcome, { ok: true }>,
  action: string,
  channelUrl: string,
): SvcError | undefined {
  const role = svcRoleOf(headers);
  if (role) {
    // listen answers 200 to anything POSTed (spec 2.2): the wrong side of the channel
    return new SvcError(
      'SVC_E_NOT_A_CHANNEL',
      `Could not ${action}: ${new URL(channelUrl).host} is svc-cli ${role.command} (${role.plays}), not a channel of the platform.`,
      'Give --channel-url the channel URL the platform prints: {base_url}/<random_string>/<channel_public_id> (spec 4.1), e.g. from `svc-cli platform`.',
    );
  }
  if (status === 200) return undefined;
  const slip = hintStatusUrlSlip(channelUrl);
  if (status === 404 && headers['x-svc-proxy'] === 'no_route') {
    // svc-cli proxy answered, not a platform: its own words say which path or flag is wrong
    const said = proxyMessageOf(body);
    return new SvcError(
      'SVC_E_UNKNOWN_CHANNEL',
      `Could not ${action}: ${new URL(channelUrl).host} is svc-cli proxy, which does not forward this path${said ? `: ${said}` : ''} (HTTP 404).`,
      "Point --channel-url at the proxy's /channel path, and start the proxy with --platform-url <the channel URL the platform shows>.",
    );
  }
  const segments = new URL(channelUrl).pathname.split('/').filter((x) => x !== '');
  // one segment (a proxy's /channel aside): the public id alone, its random string left out
  if (status === 404 && segments.length === 1 && segments[0] !== 'channel') {
    return new SvcError(
      'SVC_E_UNKNOWN_CHANNEL',
      `Could not ${action}: no channel at ${channelUrl} (HTTP 404): its path has one segment, "${segments[0]}", and a channel URL has two, {base_url}/<random_string>/<channel_public_id> (spec 4.1).`,
      "Put the random string before the public id: copy the channel URL line of svc-cli platform's banner (or your channel settings).",
    );
  }
  if (status === 404) {
    return new SvcError(
      'SVC_E_UNKNOWN_CHANNEL',
      `Could not ${action}: no channel at this URL: its public id is unknown or its random string is wrong (HTTP 404, spec 4.1).`,
      slip ??
        'Check --channel-url: copy it again from the channel settings (the simulator prints it in its banner).',
    );
  }
  return new SvcError(
    'SVC_E_CHANNEL_STATUS',
    // the body is the answer's: the answer line shows it (text and --json), so it is details here
    `Could not ${action}: the platform answered HTTP ${status} (spec 4.1 expects 200).`,
    slip ?? "Spec 4.1: a status other than 200 means contacting the platform's support.",
    { details: { status, body: body.slice(0, 200) } },
  );
}

function unreachable(
  action: string,
  url: string,
  outcome: Extract<PostOutcome, { ok: false }>,
  timeoutMs: number,
): SvcError {
  const code =
    outcome.reason === 'timeout'
      ? 'SVC_E_TIMEOUT'
      : outcome.reason === 'untrusted'
        ? 'SVC_E_UNTRUSTED_CERT'
        : outcome.reason === 'tls'
          ? 'SVC_E_TLS'
          : 'SVC_E_UNREACHABLE';
  return new SvcError(
    code,
    `Could not ${action}: ${outcome.message} (${new URL(url).host}).`,
    outcome.reason === 'timeout'
      ? timeoutHint(timeoutMs)
      : outcome.reason === 'untrusted' || outcome.reason === 'tls'
        ? undefined // the message says the way out
        : 'Check --channel-url and that the platform is up.',
    { details: { reason: outcome.reason, latencyMs: outcome.durationMs } },
  );
}

/**
 * What to do about a send timeout. `--timeout 30` is 30 ms, as a bare number is ms: a limit
 * that short was most likely meant in seconds, so say how to write that (as hook-fire does).
 */
function timeoutHint(timeoutMs: number): string {
  const base = 'Raise --timeout, or check the platform.';
  if (timeoutMs >= 100) return base;
  return `${base} --timeout ${timeoutMs} is ${timeoutMs} ms, as a bare number is ms: --timeout ${timeoutMs}s waits ${timeoutMs} s.`;
}

function outcomeFields(outcome: PostOutcome): {
  response?: { status: number; headers: Record<string, string>; body: string };
  failure?: { reason: string; message: string };
  durationMs: number;
  wallMs: number;
} {
  return outcome.ok
    ? {
        response: { status: outcome.status, headers: outcome.headers, body: outcome.body },
        durationMs: outcome.durationMs,
        wallMs: outcome.wallMs,
      }
    : {
        failure: { reason: outcome.reason, message: outcome.message },
        durationMs: outcome.durationMs,
        wallMs: outcome.wallMs,
      };
}
