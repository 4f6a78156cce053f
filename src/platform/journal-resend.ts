import { SvcError } from '../errors.js';
import { getText, postJson } from '../http/client.js';
import type { PlatformCore } from './core.js';
import { isPushRecord, recordExchange } from '../journal/index.js';

export interface ResendResult {
  /** the exchange that was resent */
  seq: number;
  method: string;
  url: string;
  status?: number;
  body?: string;
  failure?: { reason: string; message: string };
}

const HOP_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
/** how long a resent request may take (protocol ms) */
const RESEND_TIMEOUT_MS = 10_000;

/**
 * Re-issues a recorded request (README "Control API": POST /_sim/journal/:seq/resend): a
 * request the simulator served is sent to it again, so it is handled and journaled anew; a
 * request it sent (agent message, hook, bot event) goes to the same URL once more, no redelivery.
 * @example await resendExchange(core, 3) // { seq: 3, method: 'POST', url, status: 200, body }
 */
export async function resendExchange(
  core: PlatformCore,
  seq: number,
  options: {
    controlAuthorization?: string;
    /** the platform's bot token (spec 5.2), which the journal keeps as `***` */
    botToken?: string;
  } = {},
): Promise<ResendResult> {
  // the one record after seq - 1: entries() parses only what it returns
  const [entry] = core.journal.entries(seq - 1).filter((e) => e.seq === seq);
  if (!entry) {
    throw new SvcError(
      'SVC_E_NO_EXCHANGE',
      `Could not resend exchange ${seq}: it is not in the journal.`,
      'GET /_sim/journal lists the recent exchanges with their seq.',
    );
  }
  if (isPushRecord(entry)) {
    // a server-sent event written to a page: sent again it would open a new event stream
    throw new SvcError(
      'SVC_E_RESEND',
      `Could not resend exchange ${seq}: it is an event pushed to a widget page, not a request.`,
      'Resend what caused it (the agent message, the call) instead.',
    );
  }
  const { method } = entry.request;
  if (method !== 'GET' && method !== 'POST') {
    throw new SvcError(
      'SVC_E_RESEND',
      `Could not resend exchange ${seq}: ${method} is not resent.`,
    );
  }
  const url = restoreSecrets(
    core,
    entry.request.url,
    entry.iface === 'bot' && entry.direction === 'out' ? options.botToken : undefined,
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.request.headers ?? {})) {
    if (!HOP_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  // the journal keeps Authorization as `Bearer ***`: sent back as that, a control request to a
  // simulator with a control token would be refused (401), so it carries the resend's own
  const own = entry.direction === 'in' && new URL(url).pathname.startsWith('/_sim/');
  if (own && options.controlAuthorization !== undefined) {
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'authorization') delete headers[name];
    headers.authorization = options.controlAuthorization;
  }
  const common = {
    url,
    headers,
    timeoutMs: RESEND_TIMEOUT_MS,
    clock: core.clock,
    signal: core.signal,
  };
  const started = core.clock.now();
  const outcome =
    method === 'GET'
      ? await getText(common)
      : await postJson({ ...common, body: entry.request.body ?? '' });
  if (entry.direction === 'out') {
    // requests the simulator sends are journaled by their sender; record this one here
    recordExchange(core.journal, {
      protocolMs: started,
      iface: entry.iface,
      direction: 'out',
      ...(entry.kind ? { kind: entry.kind } : {}),
      request: {
        method,
        url: entry.request.url,
        headers,
        ...(entry.request.body === undefined ? {} : { body: entry.request.body }),
      },
      ...(outcome.ok
        ? { response: { status: outcome.status, body: outcome.body } }
        : { failure: { reason: outcome.reason, message: outcome.message } }),
      durationMs: outcome.durationMs,
      wallMs: outcome.wallMs,
      notes: [`resend of #${seq}`],
    });
  }
  return {
    seq,
    method,
    url: entry.request.url,
    ...(outcome.ok
      ? { status: outcome.status, body: outcome.body }
      : { failure: { reason: outcome.reason, message: outcome.message } }),
  };
}

/**
 * The journal may hold URLs with the channel's random string redacted (`***`, spec 5.1);
 * a `***` segment before a channel's public id is that channel's random string again.
 */
function restoreSecrets(core: PlatformCore, url: string, botToken?: string): string {
  if (!url.includes('***')) return url;
  const parsed = new URL(url);
  const parts = parsed.pathname.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const channel = core.state.channels.get(decodeURIComponent(parts[i + 1] ?? ''));
    if (parts[i] === '***' && channel) parts[i] = channel.randomString;
  }
  // spec 4.3: an event to the bot goes to <bot_provider_url>/<token>, its last segment
  const last = parts.length - 1;
  if (botToken !== undefined && parts[last] === '***') parts[last] = encodeURIComponent(botToken);
  parsed.pathname = parts.join('/');
  return parsed.toString();
}
