import type { Clock } from '../clock.js';
import { postJson, type PostOutcome } from './client.js';

/**
 * The temporary-token exchange of spec 5.3. The spec gives no request shape; assumed (and
 * said in --help and the README): an OAuth2 client-credentials request,
 * `POST <token_url>` form-encoded `grant_type=client_credentials&client_id=..&client_secret=..`
 * answered `{ "access_token", "token_type": "Bearer", "expires_in": <seconds> }`.
 */
export interface TokenClientOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  clock: Clock;
  /** protocol ms to wait for the token endpoint (default 3000) */
  timeoutMs?: number;
  /** a token is renewed this many protocol ms before it expires (default 0) */
  marginMs?: number;
  signal?: AbortSignal;
  onToken?: (report: TokenReport) => void;
  /** hears each request to the token endpoint with what came of it (a caller's journal) */
  onExchange?: (exchange: TokenExchange) => void;
}

/** One request to the token endpoint as sent, and its answer or why none came. */
export interface TokenExchange {
  url: string;
  headers: Record<string, string>;
  /** the form body, with the client secret in it (a journal masks it) */
  body: string;
  outcome: PostOutcome;
}

export interface TokenReport {
  action: 'obtained' | 'renewed' | 'failed';
  reason?: string;
  expiresInMs?: number;
}

export interface TokenClient {
  /** `{ authorization: 'Bearer ..' }`, obtaining or renewing the token first when needed; `{}` when that fails. */
  headers(): Promise<Record<string, string>>;
  /** Forgets the token (the peer refused it with 401): the next request renews it. */
  invalidate(reason: string): void;
}

/** Lifetime assumed when the token endpoint gives no `expires_in` (seconds). */
const DEFAULT_EXPIRES_IN_S = 3600;

/**
 * @example const tokens = createTokenClient({ tokenUrl, clientId, clientSecret, clock }); await tokens.headers();
 */
export function createTokenClient(options: TokenClientOptions): TokenClient {
  let token: { value: string; expiresAt: number } | undefined;
  let pending: Promise<Record<string, string>> | undefined;
  let renewReason: string | undefined;
  let obtainedOnce = false;

  const fetchToken = async (): Promise<Record<string, string>> => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
    }).toString();
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const outcome = await postJson({
      url: options.tokenUrl,
      body,
      headers,
      timeoutMs: options.timeoutMs ?? 3000,
      clock: options.clock,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    options.onExchange?.({ url: options.tokenUrl, headers, body, outcome });
    const fail = (reason: string): Record<string, string> => {
      options.onToken?.({ action: 'failed', reason });
      return {};
    };
    if (!outcome.ok) return fail(`token endpoint: ${outcome.message}`);
    if (outcome.status !== 200) return fail(`token endpoint answered HTTP ${outcome.status}`);
    let json: { access_token?: unknown; expires_in?: unknown };
    try {
      json = JSON.parse(outcome.body) as typeof json;
    } catch {
      return fail('token endpoint reply is not JSON');
    }
    if (typeof json.access_token !== 'string' || json.access_token === '')
      return fail('token endpoint reply has no access_token');
    const expiresIn =
      typeof json.expires_in === 'number' && json.expires_in > 0
        ? json.expires_in
        : DEFAULT_EXPIRES_IN_S;
    const expiresInMs = expiresIn * 1000;
    token = { value: json.access_token, expiresAt: options.clock.now() + expiresInMs };
    options.onToken?.({
      action: obtainedOnce ? 'renewed' : 'obtained',
      ...(obtainedOnce && renewReason ? { reason: renewReason } : {}),
      expiresInMs,
    });
    obtainedOnce = true;
    renewReason = undefined;
    return { authorization: `Bearer ${token.value}` };
  };

  return {
    headers() {
      const margin = options.marginMs ?? 0;
      if (token && options.clock.now() < token.expiresAt - margin)
        return Promise.resolve({ authorization: `Bearer ${token.value}` });
      if (token) {
        renewReason = 'expired';
        token = undefined;
      }
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    invalidate(reason) {
      if (!token) return;
      token = undefined;
      renewReason = reason;
    },
  };
}
