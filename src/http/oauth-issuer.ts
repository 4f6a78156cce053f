import { randomBytes } from 'node:crypto';
import { secretEquals as same } from './secret.js';
import type { Clock } from '../clock.js';
import type { BodyResult } from './body.js';

/**
 * The issuing side of the spec 5.3 token exchange (OAuth2 client credentials, an
 * assumption: the spec shows no shape). Used by the platform (`POST /oauth/token`, for the
 * provider's `/providers/...` requests) and by bot-sim (`--auth`, for the platform's requests).
 */
export interface TokenIssuerOptions {
  clientId: string;
  clientSecret: string;
  clock: Clock;
  /** protocol ms an issued token lives (default 3600 s) */
  ttlMs?: number;
}

export type IssueResult =
  | {
      ok: true;
      status: 200;
      body: { access_token: string; token_type: 'Bearer'; expires_in: number };
    }
  | { ok: false; status: 400 | 401; code: 'invalid_request' | 'invalid_client'; message: string };

export interface TokenIssuer {
  /** Answers a token request (form-encoded or JSON body). */
  issue(body: BodyResult | undefined): IssueResult;
  /** True when the Authorization header carries a live token this issuer gave out. */
  verify(authorization: string | undefined): boolean;
  /** Ends every issued token (tests: a refused token). */
  revokeAll(): void;
}

/** Reads client credentials from a form-encoded or JSON body. */
function readCredentials(body: BodyResult | undefined): Record<string, string> | undefined {
  if (!body) return undefined;
  const raw = body.ok ? body.raw : body.raw;
  if (raw === undefined) return undefined;
  if (body.ok && body.json !== null && typeof body.json === 'object') {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body.json as Record<string, unknown>))
      if (typeof v === 'string') out[k] = v;
    return out;
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/**
 * @example const issuer = createTokenIssuer({ clientId, clientSecret, clock }); issuer.verify('Bearer x') // false
 */
export function createTokenIssuer(options: TokenIssuerOptions): TokenIssuer {
  const ttlMs = options.ttlMs ?? 3_600_000;
  const live = new Map<string, number>();
  const prune = (now: number): void => {
    for (const [token, expiresAt] of live) if (expiresAt <= now) live.delete(token);
  };
  return {
    issue(body) {
      const form = readCredentials(body);
      if (!form)
        return {
          ok: false,
          status: 400,
          code: 'invalid_request',
          message:
            'a form-encoded or JSON body with grant_type, client_id and client_secret is required',
        };
      if (form.grant_type !== 'client_credentials')
        return {
          ok: false,
          status: 400,
          code: 'invalid_request',
          message: 'grant_type must be client_credentials',
        };
      const id = form.client_id ?? '';
      const secret = form.client_secret ?? '';
      // both compared, constant time, so the answer does not tell which one was wrong
      const idOk = same(id, options.clientId);
      const secretOk = same(secret, options.clientSecret);
      if (!idOk || !secretOk)
        return {
          ok: false,
          status: 401,
          code: 'invalid_client',
          message: 'unknown client_id or wrong client_secret',
        };
      const now = options.clock.now();
      prune(now);
      const token = randomBytes(24).toString('base64url');
      live.set(token, now + ttlMs);
      return {
        ok: true,
        status: 200,
        body: {
          access_token: token,
          token_type: 'Bearer',
          expires_in: Math.max(1, Math.round(ttlMs / 1000)),
        },
      };
    },
    verify(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match?.[1]) return false;
      const now = options.clock.now();
      prune(now);
      let found = false;
      for (const token of live.keys()) if (same(match[1], token)) found = true;
      return found;
    },
    revokeAll() {
      live.clear();
    },
  };
}
