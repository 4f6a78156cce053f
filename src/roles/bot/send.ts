import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { formatIssue } from '../../contract/issues.js';
import { validate } from '../../contract/validate.js';
import { postJson, type PostOutcome } from '../../http/client.js';
import type { TokenClient, TokenExchange } from '../../http/oauth-client.js';
import { recordExchange, type ExchangeInput, type Journal } from '../../journal/index.js';
import type { BotSentEvent } from './events.js';
import type { ScriptMessage } from './script.js';

export interface PlatformTarget {
  /** the bot service base URL */
  platformUrl: string;
  providerId: string;
  token: string;
  /** with a token client: POST /providers/... with Authorization (spec 5.3); else /webhooks/... */
  tokens?: TokenClient;
  clock: Clock;
  signal?: AbortSignal;
  /**
   * `--record`: each post journaled as sent (direction `out`), with the platform's answer or
   * why none came, beside the events bot-sim received
   */
  journal?: Journal | undefined;
}

/** The provider-to-platform URL of spec 4.3. */
export function platformEventUrl(
  target: Pick<PlatformTarget, 'platformUrl' | 'providerId' | 'token' | 'tokens'>,
): string {
  const base = target.platformUrl.replace(/\/+$/, '');
  const kind = target.tokens ? 'providers' : 'webhooks';
  return `${base}/${kind}/${encodeURIComponent(target.providerId)}/${encodeURIComponent(target.token)}`;
}

/**
 * Posts BOT_MESSAGE or INVITE_AGENT (spec 4.3, 6.1), or the public docs' CLIENT_INFO with
 * its contact data, to the platform; with a token, a 401 is
 * answered by renewing the token and trying once more (spec 5.3).
 * @example await sendToPlatform(target, { event: 'INVITE_AGENT', chatId: '1', clientId: '501' });
 */
export async function sendToPlatform(
  target: PlatformTarget,
  input: {
    event: 'BOT_MESSAGE' | 'INVITE_AGENT' | 'CLIENT_INFO';
    chatId: string;
    clientId?: string;
    message?: ScriptMessage;
    contactInfo?: Record<string, string>;
  },
): Promise<Omit<BotSentEvent, 'type' | 'protocolMs' | 'rule'>> {
  const body = {
    event: input.event,
    id: randomUUID(),
    ...(input.clientId === undefined ? {} : { client_id: input.clientId }),
    chat_id: input.chatId,
    ...(input.message
      ? { message: { ...input.message, timestamp: target.clock.epochSeconds() } }
      : {}),
    ...(input.contactInfo ? { contact_info: input.contactInfo } : {}),
  };
  const summary = {
    event: input.event,
    chatId: input.chatId,
    ...(input.message ? { messageType: input.message.type } : {}),
    ...(input.message?.text === undefined ? {} : { text: input.message.text }),
  };
  const url = platformEventUrl(target);
  const text = JSON.stringify(body);
  for (let round = 1; ; round++) {
    const headers = target.tokens ? await target.tokens.headers() : {};
    const outcome = await postJson({
      url,
      body: text,
      headers,
      timeoutMs: 3000,
      clock: target.clock,
      ...(target.signal ? { signal: target.signal } : {}),
    });
    journalPost(target, { url, body, text, headers, outcome, round });
    if (!outcome.ok) return { ...summary, error: outcome.message };
    if (outcome.status === 401 && target.tokens && round === 1) {
      target.tokens.invalidate('refused with 401');
      continue;
    }
    return {
      ...summary,
      status: outcome.status,
      ...(outcome.status === 200 ? {} : { error: outcome.body }),
    };
  }
}

/**
 * One post to the platform in bot-sim's journal, as every outbound exchange of svc-cli is
 * recorded (direction `out`, stamped when the answer came): the body as sent with the headers
 * that went with it (the journal masks the token and the Authorization header), the platform's
 * answer or why none came, and the contract's verdict on the body. `svc-cli trace` draws it as
 * the platform saw it, from the bot.
 */
function journalPost(
  target: PlatformTarget,
  post: {
    url: string;
    body: { event: string; chat_id: string };
    text: string;
    headers: Record<string, string>;
    outcome: PostOutcome;
    round: number;
  },
): void {
  if (!target.journal) return;
  const { url, body, text, headers, outcome, round } = post;
  const kind = `bot.event.${body.event}`;
  const verdict = validate(kind, body);
  recordExchange(target.journal, {
    protocolMs: target.clock.now(),
    iface: 'bot',
    direction: 'out',
    kind,
    ...(/^\d+$/.test(body.chat_id) ? { chat: Number(body.chat_id) } : {}),
    request: {
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      },
      body: text,
    },
    ...outcomeFields(outcome),
    verdict: {
      ok: verdict.ok,
      errors: verdict.errors.map(formatIssue),
      warnings: verdict.warnings.map(formatIssue),
    },
    ...(round > 1 ? { notes: ['sent again with a renewed token after a 401 (spec 5.3)'] } : {}),
  });
}

/**
 * bot-sim's request for a token at the platform's token endpoint (`--auth`, spec 5.3) in its
 * journal, as its posts are; the journal masks the client secret and the token it got.
 * @example createTokenClient({ ..., onExchange: (exchange) => journalTokenRequest(journal, clock, exchange) })
 */
export function journalTokenRequest(
  journal: Journal | undefined,
  clock: Clock,
  { url, headers, body, outcome }: TokenExchange,
): void {
  if (!journal) return;
  recordExchange(journal, {
    protocolMs: clock.now(),
    iface: 'bot',
    direction: 'out',
    request: {
      method: 'POST',
      url,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
    },
    ...outcomeFields(outcome),
  });
}

/** The platform's answer, or why none came, with the exchange's times, as a journal records them. */
function outcomeFields(
  outcome: PostOutcome,
): Pick<ExchangeInput, 'response' | 'failure' | 'durationMs' | 'wallMs'> {
  return {
    ...(outcome.ok
      ? { response: { status: outcome.status, headers: outcome.headers, body: outcome.body } }
      : { failure: { reason: outcome.reason, message: outcome.message } }),
    durationMs: outcome.durationMs,
    wallMs: outcome.wallMs,
  };
}
