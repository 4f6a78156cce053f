/**
 * The services a core uses and the one place a request is answered: the router matches once,
 * 404 and 405 are answered here, and a refusal a route throws is mapped here, once.
 */
import type { Clock } from '../clock.js';
import { ERRORS } from '../error-codes.js';
import { SvcError } from '../errors.js';
import { errorBody } from '../http/body.js';
import { ProtocolError } from '../protocol-error.js';
import { isControlPath } from './control-access.js';
import type { RequestRejectedEvent } from '../wire-errors.js';
import type { LifecycleHooks } from './lifecycle-hooks.js';
import { shapeAnswer, type PayloadForms } from './payload-forms.js';
import { createRouter } from './router.js';
import type {
  PlatformRequest,
  PlatformResponse,
  PlatformService,
  Route,
  RouteHandler,
} from './types.js';

export interface ServiceTable {
  /** the services in `use()` order */
  readonly services: readonly PlatformService[];
  readonly use: (service: PlatformService) => void;
  readonly routes: () => readonly Route[];
  readonly service: <T extends PlatformService>(name: string) => T | undefined;
  readonly handle: (request: PlatformRequest) => Promise<PlatformResponse> | PlatformResponse;
  /** Whether a route takes this method at this path (else `handle` answers 404 or 405). */
  readonly serves: (method: string, path: string) => boolean;
}

export interface ServiceTableOptions {
  /** where a service's lifecycle hooks are collected (lifecycle-hooks.ts) */
  hooks: { add(hooks: Partial<LifecycleHooks> | undefined): void };
  /** a profile's success status and answer shape (payload-forms.ts) */
  forms?: PayloadForms | undefined;
  clock: Clock;
  /** the one `request-rejected` event of the platform: every refusal answered here (spec 7) */
  onRejected?: (event: RequestRejectedEvent) => void;
}

/**
 * The services in use and `handle`, the answer of the route a request matches.
 * @example const table = createServiceTable({ hooks, clock }); table.use(service); table.handle(request);
 */
export function createServiceTable(options: ServiceTableOptions): ServiceTable {
  const { hooks, forms, clock, onRejected } = options;
  const services: PlatformService[] = [];
  const router = createRouter();
  // the methods a `*` route serves (Route.serves), by its handler: what `serves` reads
  const served = new Map<RouteHandler, readonly string[]>();
  const answer = (error: unknown, request: PlatformRequest): PlatformResponse =>
    answerError(
      error,
      request,
      onRejected && ((e) => onRejected({ ...e, protocolMs: clock.now() })),
    );
  return {
    services,
    use(service) {
      services.push(service);
      hooks.add(service.lifecycle);
      if (service.routes) router.add(service.routes);
      for (const route of service.routes ?? [])
        if (route.serves) served.set(route.handler, route.serves);
    },
    routes() {
      return services.flatMap((s) => s.routes ?? []);
    },
    service<T extends PlatformService>(name: string) {
      return services.find((s) => s.name === name) as T | undefined;
    },
    serves(method, path) {
      const found = router.match(method, path);
      if (found.kind !== 'found') return false;
      return served.get(found.handler)?.includes(method) ?? true;
    },
    // not async: a synchronous route (channel ingest) is answered without a promise hop
    handle(request) {
      const found = router.match(request.method, request.path);
      if (found.kind === 'none') return answer(noEndpoint(request), request);
      if (found.kind === 'method') return answer(notThisMethod(found.allow), request);
      const answered = answerRoute(found.handler, found.params, request, answer);
      // a profile's forms (payload-forms.ts): its success status and answer shape
      return forms === undefined ? answered : shapeAnswered(forms, answered, clock);
    },
  };
}

/**
 * Where a mistyped control path is told to look: the console is served only with --web (a
 * newcomer opened it without), the other routes are in `platform --help` and docs/platform.md.
 */
export function simPathHint(path: string): string {
  return path.startsWith('/_sim/console')
    ? '; the web console is served when the simulator runs with --web (svc-cli platform --web)'
    : '; the control API routes: svc-cli platform --help, docs/platform.md';
}

/** spec 7.1: no endpoint at this path; a mistyped control path is told where the routes are. */
export function noEndpoint(request: Pick<PlatformRequest, 'method' | 'path'>): ProtocolError {
  const hint = request.path.startsWith('/_sim') ? simPathHint(request.path) : '';
  return new ProtocolError('not_found', `no endpoint at ${request.method} ${request.path}${hint}`);
}

/** spec 7.2: the path is known, the method is not one of its routes'. */
export function notThisMethod(allow: readonly string[]): ProtocolError {
  return new ProtocolError('method_not_allowed', `use ${allow.join(' or ')}`, {
    headers: { allow: allow.join(', ') },
  });
}

/** Which interface a path belongs to, for the journal record of a 404 or 405. */
export function ifaceOf(path: string): 'channel' | 'bot' | 'control' {
  if (path === '/' || path.startsWith('/_sim')) return 'control';
  if (/^\/(webhooks|providers|oauth)\//.test(path)) return 'bot';
  return 'channel';
}

/** A route's answer; an input error it throws (or rejects with) answered as data. */
function answerRoute(
  handler: RouteHandler,
  params: Readonly<Record<string, string>>,
  request: PlatformRequest,
  refuse: (error: unknown, request: PlatformRequest) => PlatformResponse,
): PlatformResponse | Promise<PlatformResponse> {
  try {
    const answer = handler(request, params);
    return answer instanceof Promise
      ? answer.catch((error: unknown) => refuse(error, request))
      : answer;
  } catch (error) {
    return refuse(error, request);
  }
}

/** A refusal as the platform's log reports it (no time yet: the table stamps it). */
type Rejected = Omit<RequestRejectedEvent, 'protocolMs'>;

/** An answer in a profile's forms, synchronous when the route's was. */
function shapeAnswered(
  forms: PayloadForms,
  answer: PlatformResponse | Promise<PlatformResponse>,
  clock: Clock,
): PlatformResponse | Promise<PlatformResponse> {
  const shape = (r: PlatformResponse) => shapeAnswer(forms, r, clock.epochSeconds() * 1000);
  return answer instanceof Promise ? answer.then(shape) : shape(answer);
}

/**
 * A refusal thrown by a handler answered once, here: a protocol refusal (spec 7) with its
 * status, headers, body and record, reported once as `request-rejected` (unless its route
 * reported it in its own event); an input error with its catalogue status. Others rethrow.
 */
export function answerError(
  error: unknown,
  request: PlatformRequest,
  report?: (event: Rejected) => void,
): PlatformResponse {
  if (error instanceof ProtocolError) {
    if (report && error.report !== false)
      report({
        type: 'request-rejected',
        method: request.method,
        path: request.path,
        status: error.status,
        code: error.code,
        message: error.report,
      });
    return {
      status: error.status,
      ...(error.headers ? { headers: { ...error.headers } } : {}),
      body: error.body === undefined ? errorBody(error.code, error.message) : error.body,
      record: { iface: ifaceOf(request.path), ...error.record },
    };
  }
  if (error instanceof SvcError && error.category === 'input') {
    const entry = ERRORS[error.code];
    const body = errorBody(error.code, error.message);
    // the control API is svc-cli's own: its refusals say what to do, as the CLI's errors do
    // (the wire's error bodies stay as the spec has them)
    const hinted =
      error.hint !== undefined && isControlPath(request.path)
        ? { error: { ...body.error, hint: error.hint } }
        : body;
    return {
      status: 'status' in entry ? entry.status : 400,
      body: hinted,
      record: { iface: ifaceOf(request.path) },
    };
  }
  throw error;
}
