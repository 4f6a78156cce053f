/**
 * Who may use the control API, the console and the page-script routes over a socket
 * (docs/SECURITY.md). A browser on the user's machine reaches 127.0.0.1 too: any page it
 * opens can send a "simple" cross-origin request (text/plain, no preflight) and have it
 * acted on. So under /_sim/:
 * - a request with an `Origin` must come from the server's own origin, an `--allow-origin`
 *   entry, or (the page-script routes only) a loopback origin, which also get CORS answers;
 * - a state-changing request must say `Content-Type: application/json`, which no page can
 *   send cross-origin without a preflight this guard answers only for the origins above;
 * - with a control token (a non-loopback `--host`, or `--control-token`), the control API
 *   wants it as `Authorization: Bearer`, or `?token=` on the event stream (EventSource sends
 *   no headers). The console's static files and the page-script routes need none.
 * The channel, bot and hook endpoints keep the protection the spec gives them.
 */
import { errorBody } from '../http/body.js';
import type { WireErrorCode } from '../wire-errors.js';
import { hostNameOf } from '../http/host-check.js';
import { secretEquals } from '../http/secret.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

export interface ControlAccessOptions {
  /** origins beside the server's own that may use /_sim/ (`--allow-origin`), as `new URL().origin` */
  allowOrigins?: readonly string[] | undefined;
  /** the bearer token the control API wants (`--control-token`); none: no token */
  token?: string | undefined;
}

/** What the guard says about one /_sim/ request. */
export type ControlVerdict =
  | { kind: 'refuse'; response: PlatformResponse; reason: string }
  /** `cors`: the origin to answer Access-Control-Allow-Origin to (a cross-origin caller) */
  | { kind: 'pass'; cors?: string | undefined }
  /** a CORS preflight of an admitted origin, answered here */
  | { kind: 'preflight'; response: PlatformResponse };

const LOOPBACK_ORIGIN =
  /^https?:\/\/(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d+)?$/;

/** Whether an `Origin` is a page served from this machine's loopback (any port). */
export const isLoopbackOrigin = (origin: string): boolean => LOOPBACK_ORIGIN.test(origin);

/**
 * A page the page-script routes answer: on loopback, or served from the host name the
 * simulator is reached by on another port (the demo page of `widget --host 0.0.0.0`, opened
 * from another machine); the Host allow-list has already refused names nobody gave.
 */
function pageOnThisMachine(origin: string, host: string | undefined): boolean {
  if (isLoopbackOrigin(origin)) return true;
  if (host === undefined) return false;
  const at = origin.indexOf('://');
  return at !== -1 && hostNameOf(origin.slice(at + 3)) === hostNameOf(host);
}

/** True for a path the guard looks at: the control API, the console, the page-script routes. */
export const isControlPath = (path: string): boolean =>
  path.startsWith('/_sim/') || path === '/_sim';

/** A refusal: `reason` names the request for the simulator's log, `message` tells its sender. */
const refuse = (
  status: number,
  code: WireErrorCode,
  reason: string,
  message: string,
): ControlVerdict => ({
  kind: 'refuse',
  reason,
  response: {
    status,
    headers: {
      connection: 'close',
      ...(status === 401 ? { 'www-authenticate': 'Bearer realm="svc-cli control API"' } : {}),
    },
    body: errorBody(code, message),
    record: { iface: 'control', notes: [`refused: ${reason}`] },
  },
});

/**
 * The guard of one server; `tls` says which scheme its own origin has.
 * @example const guard = createControlGuard({ allowOrigins: ['http://localhost:5173'] }, false);
 */
export function createControlGuard(
  options: ControlAccessOptions,
  tls: boolean,
): (request: PlatformRequest) => ControlVerdict {
  const allowed = new Set(options.allowOrigins ?? []);
  const token = options.token === '' ? undefined : options.token;
  const scheme = tls ? 'https://' : 'http://';
  return (request) => {
    const { method, path, headers } = request;
    const pageScript = path.startsWith('/_sim/widget/');
    const origin = headers.origin;
    let cors: string | undefined;
    if (origin !== undefined && origin !== `${scheme}${headers.host ?? ''}`) {
      if (allowed.has(origin) || (pageScript && pageOnThisMachine(origin, headers.host)))
        cors = origin;
      else
        return refuse(
          403,
          'cross_origin',
          // the log line says the fix too: the page's own console shows only CORS errors
          `${method} ${path} from a page at ${origin}${origin === 'null' ? ' (opened from a file, or a sandboxed frame)' : ''}; --allow-origin ${origin} lets it in`,
          `Could not ${method} ${path} from a page at ${origin}: svc-cli answers its own origin${pageScript ? ', pages served from this machine' : ''} and the --allow-origin entries. To let that page in, start svc-cli with --allow-origin ${origin} (docs/SECURITY.md).`,
        );
    }
    if (method === 'OPTIONS' && cors !== undefined) {
      return {
        kind: 'preflight',
        response: {
          status: 204,
          headers: {
            'access-control-allow-origin': cors,
            // the control API replaces and clears with PUT and DELETE (/_sim/faults)
            'access-control-allow-methods': pageScript
              ? 'GET, POST, OPTIONS'
              : 'GET, POST, PUT, DELETE, OPTIONS',
            'access-control-allow-headers': 'content-type, authorization, last-event-id',
            'access-control-max-age': '600',
            vary: 'Origin',
          },
          record: { iface: pageScript ? 'widget' : 'control' },
        },
      };
    }
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      const type = headers['content-type'];
      if (type === undefined || !isJsonType(type))
        return refuse(
          403,
          'json_required',
          `${method} ${path} with ${type === undefined ? 'no Content-Type' : `Content-Type ${type}`}`,
          `Could not ${method} ${path}: a state-changing control request needs Content-Type: application/json (a web page cannot send that to another origin without asking first), and this one has ${type === undefined ? 'none' : type}. Send the body as JSON with that Content-Type ({} when there is nothing to say) (docs/SECURITY.md).`,
        );
    }
    if (token !== undefined && !pageScript && !isConsoleAsset(method, path)) {
      const auth = headers.authorization;
      const given =
        auth !== undefined && /^bearer /i.test(auth)
          ? auth.slice(7).trim()
          : path === '/_sim/events'
            ? (request.query.get('token') ?? undefined)
            : undefined;
      if (given === undefined || !secretEquals(given, token))
        return refuse(
          401,
          'control_token',
          `${method} ${path} with ${given === undefined ? 'no' : 'a wrong'} control token`,
          `Could not ${method} ${path}: the control API wants the control token the simulator's banner printed, and this request has ${given === undefined ? 'none' : 'another'}. Send Authorization: Bearer <token> (the event stream also takes ?token=<token>); --control-token sets the token (docs/SECURITY.md).`,
        );
    }
    return { kind: 'pass', cors };
  };
}

/** The console's static files: no data in them, and a browser loads them without headers. */
const isConsoleAsset = (method: string, path: string): boolean =>
  (method === 'GET' || method === 'HEAD') &&
  (path === '/_sim/console' || path.startsWith('/_sim/console/'));

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function isJsonType(type: string): boolean {
  const semi = type.indexOf(';');
  return (semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

/**
 * A response with the CORS answer the guard decided: the admitted origin, or none (a
 * service's own `*` is dropped over a socket, where only admitted origins read answers).
 */
export function withCors(response: PlatformResponse, cors: string | undefined): PlatformResponse {
  const headers = response.headers;
  if (cors === undefined) {
    if (headers?.['access-control-allow-origin'] === undefined) return response;
    const { ['access-control-allow-origin']: _dropped, ...rest } = headers;
    return { ...response, headers: rest };
  }
  return {
    ...response,
    headers: { ...headers, 'access-control-allow-origin': cors, vary: 'Origin' },
  };
}
