import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { postJson } from '../../http/client.js';
import type { TokenClient } from '../../http/oauth-client.js';
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
  for (let round = 1; ; round++) {
    const headers = target.tokens ? await target.tokens.headers() : {};
    const outcome = await postJson({
      url: platformEventUrl(target),
      body: JSON.stringify(body),
      headers,
      timeoutMs: 3000,
      clock: target.clock,
      ...(target.signal ? { signal: target.signal } : {}),
    });
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
