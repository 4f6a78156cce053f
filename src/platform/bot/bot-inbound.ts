import { fireOnce } from '../mutants.js';
import { formatIssue, refusalText } from '../../contract/issues.js';
import { validate } from '../../contract/validate.js';
import type { ContractIssue } from '../../contract/types.js';
import { ProtocolError, type ProtocolRecord } from '../../protocol-error.js';
import type { WireErrorCode } from '../../wire-errors.js';
import type { TokenIssuer } from '../../http/oauth-issuer.js';
import { isJsonContentType } from '../../http/body.js';
import type { BotEventReceivedEvent } from './bot-events.js';
import { channelTextOf } from './bot-message.js';
import type { RateLimiter } from './bot-rate-limit.js';
import type { PlatformCore } from '../core.js';
import { secretEquals } from '../ids.js';
import type { Chat } from '../model.js';
import type { PlatformRequest, PlatformResponse } from '../types.js';

/** What the provider-to-platform routes need from the bot service. */
export interface BotInboundContext {
  core: PlatformCore;
  providerId: string;
  token: string;
  limiter: RateLimiter;
  issuer?: TokenIssuer;
  /** Finds the chat an event is about (chat_id, else client_id, else the last bot chat). */
  findChat(json: Record<string, unknown>): Chat | undefined;
  isAttached(chat: Chat): boolean;
  /**
   * Delivers a valid BOT_MESSAGE, or reports why it cannot be delivered (no fallback text,
   * `channelTextOf`); the answer has already said which.
   */
  onBotMessage(chat: Chat, message: Record<string, unknown>): void;
  onInviteAgent(chat: Chat): void;
  /** CLIENT_INFO (public docs): the customer's contact data; undefined when the switch is off */
  onClientInfo?: (chat: Chat, contact: Json) => void;
  /** notes the id of an event taken, warning once when one is reused (`event-ids.ts`) */
  noteEventId?: (json: Json) => void;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** spec 6.1: the events the platform takes; the other three go the other way. */
const INBOUND_EVENTS = ['BOT_MESSAGE', 'INVITE_AGENT'];
const OUTBOUND_EVENTS = ['CLIENT_MESSAGE', 'AGENT_JOINED', 'AGENT_UNAVAILABLE', 'CHAT_CLOSED'];

/**
 * A provider request's path as the bot service's routes matched it (spec 4.3): its prefix
 * (`webhooks` or `providers`) and its params, or, for any other shape under the prefix, the
 * segments after it (`malformed`, answered 404).
 */
export type ProviderPath =
  { base: string; provider: string; token: string } | { base: string; malformed: string };

/** What is known of a provider request as it is read; every answer reports it. */
interface Seen {
  /** protocol ms the request arrived */
  at: number;
  event?: string;
  chatId?: number;
  warnings?: string[];
}

/**
 * Answers `POST {bot_service_url}/webhooks/<provider_id>/<token>` and `/providers/...`
 * (spec 4.3) with the statuses and error codes of spec 7.2: a refusal is thrown as a
 * `ProtocolError` (the core answers it), reported here first as `bot-event-received`.
 */
export function handleProviderRequest(
  ctx: BotInboundContext,
  request: PlatformRequest,
  path: ProviderPath,
): PlatformResponse {
  const seen: Seen = { at: ctx.core.clock.now() };
  try {
    return takeProviderRequest(ctx, request, path, seen);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    reportReceived(ctx.core, path, seen, error.status, error, 'rejected');
    // reported above as bot-event-received: the core adds no request-rejected of its own
    throw error.withRecord(recordOf(seen, error.status, error, 'rejected')).reported();
  }
}

/** The `bot-event-received` event of an answered provider request. */
function reportReceived(
  core: PlatformCore,
  path: ProviderPath,
  seen: Seen,
  status: number,
  refusal: { code?: WireErrorCode; message?: string },
  outcome: BotEventReceivedEvent['outcome'],
): void {
  core.emit({
    type: 'bot-event-received',
    ...(seen.event === undefined ? {} : { event: seen.event }),
    path: shownPath(path),
    ...(seen.chatId === undefined ? {} : { chatId: seen.chatId }),
    status,
    ...(refusal.code === undefined ? {} : { code: refusal.code }),
    ...(refusal.message === undefined ? {} : { message: refusal.message }),
    outcome,
    ...(seen.warnings ? { warnings: seen.warnings } : {}),
    protocolMs: seen.at,
  });
}

/** The journal record of a provider request: its chat, its event kind, the verdict. */
function recordOf(
  seen: Seen,
  status: number,
  refusal: { code?: WireErrorCode; message?: string },
  outcome: BotEventReceivedEvent['outcome'],
): ProtocolRecord {
  const ok = status === 200 && outcome === 'handled';
  return {
    ...(seen.chatId === undefined ? {} : { chat: seen.chatId }),
    ...(seen.event && (INBOUND_EVENTS.includes(seen.event) || seen.event === 'CLIENT_INFO')
      ? { kind: `bot.event.${seen.event}` }
      : {}),
    verdict: {
      ok,
      errors: ok ? [] : [`${refusal.code ?? ''}: ${refusal.message ?? ''}`],
      warnings: seen.warnings ?? [],
    },
  };
}

/** spec 7.2: 200 `{"result":"ok"}`; `notice` says why a taken message is not delivered. */
function taken(
  ctx: BotInboundContext,
  path: ProviderPath,
  seen: Seen,
  notice?: string,
): PlatformResponse {
  const outcome = notice === undefined ? 'handled' : 'not-delivered';
  const said = notice === undefined ? {} : { message: notice };
  reportReceived(ctx.core, path, seen, 200, said, outcome);
  return {
    status: 200,
    body: { result: 'ok' },
    record: { iface: 'bot', ...recordOf(seen, 200, said, outcome) },
  };
}

/**
 * spec 4.3: every bot exchange is sent with Content-Type application/json. A JSON body under
 * another type is taken (the body decides), with this warning; undefined when it is JSON.
 * @example contentTypeWarning('text/plain') // 'Content-Type: "text/plain"; ...'
 */
export function contentTypeWarning(contentType: string | undefined): string | undefined {
  if (isJsonContentType(contentType)) return undefined;
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return `Content-Type: ${type ? JSON.stringify(type) : 'none'}; the bot interface sends application/json (spec 4.3; accepted, as the body is JSON)`;
}

/** Admits a provider request (spec 4.3, 5.2, 5.3, 7.2) and takes its event; refusals throw. */
function takeProviderRequest(
  ctx: BotInboundContext,
  request: PlatformRequest,
  path: ProviderPath,
  seen: Seen,
): PlatformResponse {
  const { core } = ctx;
  const { base } = path;
  // spec 7.2: 404 endpoint malformed
  if ('malformed' in path)
    throw new ProtocolError(
      'not_found',
      `endpoint malformed: expected POST /${base}/<provider_id>/<token> (spec 4.3)`,
    );
  const { provider: providerId, token } = path;
  if (providerId !== ctx.providerId)
    throw new ProtocolError(
      'not_found',
      `no provider "${providerId}" here; this bot service serves provider "${ctx.providerId}" (spec 4.3): give both sides the same --provider-id`,
      { section: '4.3' },
    );
  // spec 7.2: 405 method not supported
  if (request.method !== 'POST')
    throw new ProtocolError(
      'method_not_allowed',
      `${request.method} is not supported; use POST (spec 4.3)`,
      { headers: { allow: 'POST' } },
    );
  // spec 5.2, 7.2: the token is the last path segment; wrong -> 401 invalid_client
  if (!secretEquals(decode(token), ctx.token))
    throw new ProtocolError(
      'invalid_client',
      "the client token failed authentication: the last path segment must be the platform's --bot-token, bot-sim's --token",
    );
  // spec 5.3, 7.2: /providers/... also needs a valid Authorization header -> 401 unauthorized_client
  if (base === 'providers' && !ctx.issuer?.verify(request.headers.authorization))
    throw new ProtocolError(
      'unauthorized_client',
      ctx.issuer
        ? 'authorization failed: send Authorization: Bearer <token from POST /oauth/token> (spec 5.3)'
        : 'authorization failed: this platform has no client credentials configured (spec 5.3)',
    );
  // spec 7.2, 8: 429 request limit exceeded (per token, on the one clock)
  const waitMs = ctx.limiter.take(ctx.token);
  if (core.mutant === 'bot-429-once' && fireOnce(core, 'bot-429-once'))
    throw new ProtocolError('rate_limited', 'request limit exceeded; retry in 1000 ms', {
      headers: { 'retry-after': '1' },
    });
  if (waitMs > 0) {
    const retrySeconds = Math.ceil((waitMs * Math.max(core.clock.timeScale, 0)) / 1000);
    throw new ProtocolError(
      'rate_limited',
      `request limit exceeded; retry in ${Math.ceil(waitMs)} ms`,
      { headers: { 'retry-after': String(Math.max(1, retrySeconds)) } },
    );
  }
  const json = eventOf(ctx, request, seen);
  const eventName = seen.event ?? '';
  const result = validate(`bot.event.${eventName}`, json);
  const missingFallback = isFallbackOnly(result.errors, json);
  // spec 7.2: 400 invalid_request: the format must match the API
  if (!result.ok && !missingFallback)
    throw new ProtocolError('invalid_request', refusalText(result));
  // accepted with warnings (a millisecond timestamp): said in the log and the record, as
  // validate and proxy say them for the same body
  const warnings = result.warnings.map(formatIssue);
  const typed = contentTypeWarning(request.headers['content-type']);
  if (typed) warnings.push(typed);
  if (warnings.length > 0) seen.warnings = warnings;
  const chat = ctx.findChat(json);
  if (!chat)
    throw new ProtocolError('invalid_request', 'chat_id: no open chat with that id (spec 2.5)');
  seen.chatId = chat.id;
  // spec 7.2: 403 access denied: the chat's channel has no bot of this provider attached
  if (!ctx.isAttached(chat))
    throw new ProtocolError(
      'access_denied',
      `chat ${chat.id} is not on a channel with this bot attached`,
    );
  ctx.noteEventId?.(json);
  // The event is reported received before what it causes (a delivery, a hand-over), so the
  // log and the event stream read in the order things happened.
  if (eventName === 'INVITE_AGENT') {
    // spec 3: a hand-over moves a bot's chat to an agent; one an agent has is not moved again
    // (a bot that invites twice, or after the agent answered): taken, and said
    if (chat.mode === 'agent')
      seen.warnings = [
        ...(seen.warnings ?? []),
        `event: INVITE_AGENT for chat ${chat.id}, which an agent already has: nothing to hand over (spec 3)`,
      ];
    const response = taken(ctx, path, seen);
    ctx.onInviteAgent(chat);
    return response;
  }
  if (eventName === 'CLIENT_INFO') {
    const response = taken(ctx, path, seen);
    ctx.onClientInfo?.(chat, json.contact_info as Json);
    return response;
  }
  const message = json.message as Json;
  const converted = channelTextOf(message);
  const response = taken(
    ctx,
    path,
    seen,
    'issue' in converted ? formatIssue(converted.issue) : undefined,
  );
  ctx.onBotMessage(chat, message);
  return response;
}

/**
 * The event of a provider request's body, one the platform takes (spec 2.5, 6.1); its name
 * goes into `seen`. Refusals throw: 400 for a body that is no event, 405 for an event the
 * platform does not take (spec 7.2).
 */
function eventOf(ctx: BotInboundContext, request: PlatformRequest, seen: Seen): Json {
  const body = request.body;
  if (!body?.ok)
    throw new ProtocolError('invalid_request', body?.message ?? 'a JSON body is required');
  const json = body.json;
  if (!isObject(json))
    throw new ProtocolError('invalid_request', 'the body must be a JSON object (spec 2.5)');
  if (typeof json.event !== 'string')
    throw new ProtocolError('invalid_request', 'event: required, a string (spec 2.5)');
  const eventName = json.event;
  seen.event = eventName;
  const takes = ctx.onClientInfo
    ? 'BOT_MESSAGE, INVITE_AGENT and CLIENT_INFO (spec 6.1, public docs)'
    : 'BOT_MESSAGE and INVITE_AGENT (spec 6.1)';
  // spec 7.2: 405 event not supported (with the API format's code)
  const notTaken = (message: string) =>
    new ProtocolError('invalid_request', message, { status: 405 });
  if (OUTBOUND_EVENTS.includes(eventName))
    throw notTaken(
      `${eventName} goes from the platform to the provider; the platform takes ${takes}`,
    );
  // the public docs' CLIENT_INFO: taken only with the switch on (docs/FIDELITY.md)
  if (eventName === 'CLIENT_INFO' && !ctx.onClientInfo)
    throw notTaken(
      'CLIENT_INFO is an event of the public Bot API, not of spec 6.1; start the platform with --bot-events docs to take it',
    );
  if (!INBOUND_EVENTS.includes(eventName) && eventName !== 'CLIENT_INFO')
    throw notTaken(`event "${eventName}" is not supported; the platform takes ${takes}`);
  return json;
}

/**
 * spec 2.5: MARKDOWN and BUTTONS carry a plain-text fallback "without which the message is
 * not delivered": a message lacking only that is accepted (200), then not delivered.
 */
function isFallbackOnly(errors: ContractIssue[], json: Json): boolean {
  const type = isObject(json.message) ? json.message.type : undefined;
  return (
    errors.length > 0 &&
    (type === 'MARKDOWN' || type === 'BUTTONS') &&
    errors.every((e) => e.path === 'message.text')
  );
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The token is a secret: events show the path without it (a malformed path hides the
 * segment where the token would be, its second after the prefix).
 */
function shownPath(path: ProviderPath): string {
  if (!('malformed' in path)) return `/${path.base}/${path.provider}/<token>`;
  const rest = path.malformed.replace(/^([^/]+\/)[^/]+/, '$1<token>');
  return rest === '' ? `/${path.base}` : `/${path.base}/${rest}`;
}
