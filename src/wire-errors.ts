/**
 * The closed catalogue of the error codes svc-cli writes into an HTTP reply body,
 * `{"error":{"code","message"}}` (spec 7.2 recommends that shape). A peer under test branches
 * on these codes, so they are data: each with the status it goes with, the section of the
 * contract it comes from (`null`: svc-cli's own, beyond the contract) and what it means.
 * `errorBody` is the one builder of such a body; a code outside this catalogue, the `SvcError`
 * catalogue of the control API or a `--fault error:<code>` does not compile.
 *
 * @example errorBody('not_found', 'no channel at that URL') // { error: { code: 'not_found', ... } }
 */
import type { ErrorCode } from './error-codes.js';

export interface WireErrorInfo {
  /** the HTTP status this code is answered with (the OAuth token endpoint also sends
   * `invalid_request` with 405 or 413: RFC 6749 allows no other code there) */
  status: number;
  /** the section of docs/CONTRACT.md, or null for a code of svc-cli's own */
  section: string | null;
  /** what the code tells the peer, in a sentence */
  meaning: string;
}

export const WIRE_ERRORS = {
  // the contract's codes (spec 7.1, 7.2)
  not_found: {
    status: 404,
    section: '7.1',
    meaning: 'no endpoint, channel or token at that path (an unknown public id, a wrong token)',
  },
  invalid_request: {
    status: 400,
    section: '7.2',
    meaning: 'the request breaks the API format: a field missing or wrong, a body not JSON',
  },
  invalid_client: {
    status: 401,
    section: '7.2',
    meaning: 'the client token (in the path or the token request) failed authentication',
  },
  unauthorized_client: {
    status: 401,
    section: '7.2',
    meaning: 'the Authorization header failed',
  },
  access_denied: {
    status: 403,
    section: '7.2',
    meaning: "the chat's channel has no bot of this provider attached",
  },
  method_not_allowed: {
    status: 405,
    section: '7.2',
    meaning: 'the endpoint takes another method (the Allow header names it)',
  },
  rate_limited: {
    status: 429,
    section: '7.2',
    meaning: 'the request limit is exceeded; retry later',
  },
  // reading a request body (every serving role)
  body_too_large: {
    status: 413,
    section: null,
    meaning: 'the body is over the request body limit (--max-body)',
  },
  invalid_json: { status: 400, section: null, meaning: 'the body is not JSON' },
  invalid_encoding: { status: 400, section: null, meaning: 'the body is not valid UTF-8' },
  empty_body: { status: 400, section: null, meaning: 'a JSON body is required and none came' },
  aborted: { status: 400, section: null, meaning: 'the client stopped sending the body' },
  // the HTTP layer
  request_timeout: {
    status: 408,
    section: null,
    meaning: 'the request did not arrive in time (a client dribbling its headers or body)',
  },
  headers_too_large: { status: 431, section: null, meaning: 'the request headers are too large' },
  host_not_allowed: {
    status: 403,
    section: null,
    meaning: 'the Host header names a host svc-cli was not started for (DNS rebinding guard)',
  },
  internal: {
    status: 500,
    section: null,
    meaning: 'svc-cli failed to handle the request (a bug; the log says more)',
  },
  // the control API's guard (docs/SECURITY.md)
  cross_origin: {
    status: 403,
    section: null,
    meaning: 'a page of another origin called the control API (see --allow-origin)',
  },
  json_required: {
    status: 403,
    section: null,
    meaning: 'a control API change must be sent as application/json',
  },
  control_token: {
    status: 401,
    section: null,
    meaning: 'the control API wants its token (Authorization: Bearer <token>)',
  },
  // fault injection and the proxy
  injected: {
    status: 500,
    section: null,
    meaning: 'a --fault status:<code> answer: svc-cli, not the peer, chose the status',
  },
  no_route: {
    status: 404,
    section: null,
    meaning: 'svc-cli proxy forwards no interface under that path',
  },
  upstream_timeout: {
    status: 504,
    section: null,
    meaning: 'svc-cli proxy: the party behind it did not answer in time',
  },
  upstream_unreachable: {
    status: 502,
    section: null,
    meaning: 'svc-cli proxy: the party behind it could not be reached',
  },
} as const satisfies Record<string, WireErrorInfo>;

/** A code of the catalogue: a free string does not compile where a reply body is built. */
export type WireErrorCode = keyof typeof WIRE_ERRORS;

/**
 * A code a user chose for a `--fault error:<code>:<message>` reply (spec 2.2: the meaning of an
 * integrator's codes is its own). Made only by `userErrorCode`, so it is never typed by accident.
 */
export type UserErrorCode = string & { readonly __userErrorCode: true };

/** Marks a code the user wrote (a fault plan, a flag) as one a reply body may carry. */
export const userErrorCode = (code: string): UserErrorCode => code as UserErrorCode;

/**
 * The one event every serving side emits for a request it refused before answering it as its
 * own (the platform, listen, hook-target, bot-sim): one name, so `--json` readers and
 * `--quiet` match one type whatever the role.
 */
export interface RequestRejectedEvent {
  type: 'request-rejected';
  method: string;
  path: string;
  status: number;
  code: WireErrorCode;
  message: string;
  protocolMs: number;
}

/** The body of an error reply (spec 7.2): `{"error":{"code","message"}}`. */
export function errorBody(
  code: WireErrorCode | ErrorCode | UserErrorCode,
  message: string,
): { error: { code: string; message: string } } {
  return { error: { code, message } };
}
