import { fireOnce } from './mutants.js';
import { formatIssue } from '../contract/issues.js';
import { validate } from '../contract/validate.js';
import type { ContractIssue } from '../contract/types.js';
import { errorBody } from '../http/body.js';
import type { WireErrorCode } from '../wire-errors.js';
import type { TokenIssuer } from '../http/oauth-issuer.js';
import type { BotEventReceivedEvent } from './bot-events.js';
import { channelTextOf } from './bot-message.js';
import type { RateLimiter } from './bot-rate-limit.js';
import type { PlatformCore } from './core.js';
import { secretEquals } from './ids.js';
import type { Chat } from './model.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

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
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** spec 6.1: the events the platform takes; the other three go the other way. */
const INBOUND_EVENTS = ['BOT_MESSAGE', 'INVITE_AGENT'];
const OUTBOUND_EVENTS = ['CLIENT_MESSAGE', 'AGENT_JOINED', 'AGENT_UNAVAILABLE', 'CHAT_CLOSED'];

/**
 * Answers `POST {bot_service_url}/webhooks/<provider_id>/<token>` and `/providers/...`
 * (spec 4.3) with the statuses and error codes of spec 7.2.
 */
export function handleProviderRequest(
  ctx: BotInboundContext,
  request: PlatformRequest,
  parts: string[],
): PlatformResponse {
  const { core } = ctx;
  const now = core.clock.now();
  // filled in as the request is read; every answer reports what was known by then
  const seen: { event?: string; chatId?: number; warnings?: string[] } = {};
  const answer = (
    status: number,
    code: WireErrorCode | undefined,
    message: string | undefined,
    outcome: BotEventReceivedEvent['outcome'],
    extra: Partial<PlatformResponse> = {},
  ): PlatformResponse => {
    core.emit({
      type: 'bot-event-received',
      ...(seen.event === undefined ? {} : { event: seen.event }),
      path: redactPath(parts),
      ...(seen.chatId === undefined ? {} : { chatId: seen.chatId }),
      status,
      ...(code === undefined ? {} : { code }),
      ...(message === undefined ? {} : { message }),
      outcome,
      ...(seen.warnings ? { warnings: seen.warnings } : {}),
      protocolMs: now,
    });
    return {
      status,
      body: code === undefined ? { result: 'ok' } : errorBody(code, message ?? ''),
      record: {
        iface: 'bot',
        ...(seen.chatId === undefined ? {} : { chat: seen.chatId }),
        ...(seen.event && (INBOUND_EVENTS.includes(seen.event) || seen.event === 'CLIENT_INFO')
          ? { kind: `bot.event.${seen.event}` }
          : {}),
        verdict: {
          ok: status === 200 && outcome === 'handled',
          errors:
            status === 200 && outcome === 'handled' ? [] : [`${code ?? ''}: ${message ?? ''}`],
          warnings: seen.warnings ?? [],
        },
      },
      ...extra,
    };
  };

  const [base = '', providerId, token] = parts;
  // spec 7.2: 404 endpoint malformed
  if (parts.length !== 3 || !providerId || !token)
    return answer(
      404,
      'not_found',
      `endpoint malformed: expected POST /${base}/<provider_id>/<token> (spec 4.3)`,
      'rejected',
    );
  if (providerId !== ctx.providerId)
    return answer(
      404,
      'not_found',
      `no provider "${providerId}" here; this bot service serves provider "${ctx.providerId}" (spec 4.3): give both sides the same --provider-id`,
      'rejected',
    );
  // spec 7.2: 405 method not supported
  if (request.method !== 'POST')
    return answer(
      405,
      'method_not_allowed',
      `${request.method} is not supported; use POST (spec 4.3)`,
      'rejected',
      {
        headers: { allow: 'POST' },
      },
    );
  // spec 5.2, 7.2: the token is the last path segment; wrong -> 401 invalid_client
  if (!secretEquals(decode(token), ctx.token))
    return answer(
      401,
      'invalid_client',
      "the client token failed authentication: the last path segment must be the platform's --bot-token, bot-sim's --token",
      'rejected',
    );
  // spec 5.3, 7.2: /providers/... also needs a valid Authorization header -> 401 unauthorized_client
  if (base === 'providers' && !ctx.issuer?.verify(request.headers.authorization))
    return answer(
      401,
      'unauthorized_client',
      ctx.issuer
        ? 'authorization failed: send Authorization: Bearer <token from POST /oauth/token> (spec 5.3)'
        : 'authorization failed: this platform has no client credentials configured (spec 5.3)',
      'rejected',
    );
  // spec 7.2, 8: 429 request limit exceeded (per token, on the one clock)
  const waitMs = ctx.limiter.take(ctx.token);
  if (core.mutant === 'bot-429-once' && fireOnce(core, 'bot-429-once'))
    return answer(429, 'rate_limited', 'request limit exceeded; retry in 1000 ms', 'rejected', {
      headers: { 'retry-after': '1' },
    });
  if (waitMs > 0)
    return answer(
      429,
      'rate_limited',
      `request limit exceeded; retry in ${Math.ceil(waitMs)} ms`,
      'rejected',
      {
        headers: {
          'retry-after': String(
            Math.max(1, Math.ceil((waitMs * Math.max(core.clock.timeScale, 0)) / 1000)),
          ),
        },
      },
    );
  const body = request.body;
  // spec 7.2: 400 invalid_request: the format must match the API
  if (!body?.ok)
    return answer(400, 'invalid_request', body?.message ?? 'a JSON body is required', 'rejected');
  const json = body.json;
  if (!isObject(json))
    return answer(400, 'invalid_request', 'the body must be a JSON object (spec 2.5)', 'rejected');
  if (typeof json.event !== 'string')
    return answer(400, 'invalid_request', 'event: required, a string (spec 2.5)', 'rejected');
  const eventName = json.event;
  seen.event = eventName;
  const takes = ctx.onClientInfo
    ? 'BOT_MESSAGE, INVITE_AGENT and CLIENT_INFO (spec 6.1, public docs)'
    : 'BOT_MESSAGE and INVITE_AGENT (spec 6.1)';
  // spec 7.2: 405 event not supported
  if (OUTBOUND_EVENTS.includes(eventName))
    return answer(
      405,
      'invalid_request',
      `${eventName} goes from the platform to the provider; the platform takes ${takes}`,
      'rejected',
    );
  // the public docs' CLIENT_INFO: taken only with the switch on (docs/FIDELITY.md)
  if (eventName === 'CLIENT_INFO' && !ctx.onClientInfo)
    return answer(
      405,
      'invalid_request',
      'CLIENT_INFO is an event of the public Bot API, not of spec 6.1; start the platform with --bot-events docs to take it',
      'rejected',
    );
  if (!INBOUND_EVENTS.includes(eventName) && eventName !== 'CLIENT_INFO')
    return answer(
      405,
      'invalid_request',
      `event "${eventName}" is not supported; the platform takes ${takes}`,
      'rejected',
    );
  const result = validate(`bot.event.${eventName}`, json);
  const missingFallback = isFallbackOnly(result.errors, json);
  if (!result.ok && !missingFallback)
    return answer(400, 'invalid_request', result.errors.map(formatIssue).join('; '), 'rejected');
  // accepted with warnings (a millisecond timestamp): said in the log and the record, as
  // validate and proxy say them for the same body
  if (result.warnings.length > 0) seen.warnings = result.warnings.map(formatIssue);
  const chat = ctx.findChat(json);
  if (!chat)
    return answer(
      400,
      'invalid_request',
      'chat_id: no open chat with that id (spec 2.5)',
      'rejected',
    );
  seen.chatId = chat.id;
  // spec 7.2: 403 access denied: the chat's channel has no bot of this provider attached
  if (!ctx.isAttached(chat))
    return answer(
      403,
      'access_denied',
      `chat ${chat.id} is not on a channel with this bot attached`,
      'rejected',
    );
  // The event is reported received before what it causes (a delivery, a hand-over), so the
  // log and the event stream read in the order things happened.
  if (eventName === 'INVITE_AGENT') {
    const response = answer(200, undefined, undefined, 'handled');
    ctx.onInviteAgent(chat);
    return response;
  }
  if (eventName === 'CLIENT_INFO') {
    const response = answer(200, undefined, undefined, 'handled');
    ctx.onClientInfo?.(chat, json.contact_info as Json);
    return response;
  }
  const message = json.message as Json;
  const converted = channelTextOf(message);
  const response =
    'issue' in converted
      ? answer(200, undefined, formatIssue(converted.issue), 'not-delivered')
      : answer(200, undefined, undefined, 'handled');
  ctx.onBotMessage(chat, message);
  return response;
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

/** The token is a secret: events show the path without it. */
function redactPath(parts: string[]): string {
  return `/${parts.map((p, i) => (i === 2 ? '<token>' : p)).join('/')}`;
}
