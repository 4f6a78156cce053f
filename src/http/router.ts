/**
 * Routes as data, matched once: a table of `{ method, path, handler }` (the platform's
 * services, a serving role's endpoints, the proxy's legs); the caller answers 404 and 405
 * from the match. The most specific pattern wins (static segment > `:param` > `*`, compared
 * left to right), so the order routes are added in does not decide who answers. One `*` per
 * pattern takes the segments the others leave: trailing (`/_sim/console/*`, the rest) or
 * before them (`*` then `:token`: any path whose last segment is the token; the `*` may be
 * empty).
 * The handler is whatever the table's owner dispatches to (a function, a leg, an endpoint).
 */

/** One route: the methods, the path pattern, and what answers it. */
export interface RouteOf<H> {
  /** one method, several (`['GET', 'HEAD']`), or `*`: the handler answers every method */
  method: string | readonly string[];
  /** `/_sim/chats/:id/close`, `/:random/:channel`, `/_sim/console/*`; a `*` may come first */
  path: string;
  handler: H;
}

type Segment =
  { kind: 'static'; value: string } | { kind: 'param'; name: string } | { kind: 'rest' };

interface CompiledRoute<H> {
  methods: readonly string[];
  /** the route takes every method (`*`) */
  anyMethod: boolean;
  segments: Segment[];
  /** the number of path segments it matches; -1 with a `*` (then at least `minLength`) */
  length: number;
  /** with a `*`: the segments around it, which the path must have */
  minLength: number;
  /** with a `*`: its index in `segments` (-1 without) */
  restAt: number;
  /**
   * one digit per segment (3 static, 2 param, 1 rest) and 2 at the end of an exact pattern;
   * compared as strings, higher is more specific: an exact match beats a `*` that matches too
   */
  rank: string;
  handler: H;
}

export type RouteMatch<H> =
  | { kind: 'found'; handler: H; params: Record<string, string> }
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' };

/** The segments and rank of each path pattern seen: every platform in a process shares them. */
const patterns = new Map<string, Pick<CompiledRoute<unknown>, 'segments' | 'rank'>>();

function compilePattern(path: string): Pick<CompiledRoute<unknown>, 'segments' | 'rank'> {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((part): Segment =>
      part === '*'
        ? { kind: 'rest' }
        : part.startsWith(':')
          ? { kind: 'param', name: part.slice(1) }
          : { kind: 'static', value: part },
    );
  return {
    segments,
    rank:
      segments.map((s) => (s.kind === 'static' ? 3 : s.kind === 'param' ? 2 : 1)).join('') +
      (segments.some((s) => s.kind === 'rest') ? '' : '2'),
  };
}

function compile<H>(route: RouteOf<H>): CompiledRoute<H> {
  let pattern = patterns.get(route.path);
  if (!pattern) {
    pattern = compilePattern(route.path);
    patterns.set(route.path, pattern);
  }
  const methods = typeof route.method === 'string' ? [route.method] : [...route.method];
  const restAt = pattern.segments.findIndex((segment) => segment.kind === 'rest');
  if (restAt !== pattern.segments.findLastIndex((segment) => segment.kind === 'rest'))
    throw new Error(`route ${route.path}: one * per pattern`);
  return {
    methods,
    anyMethod: methods.includes('*'),
    segments: pattern.segments,
    length: restAt === -1 ? pattern.segments.length : -1,
    minLength: pattern.segments.length - 1,
    restAt,
    rank: pattern.rank,
    handler: route.handler,
  };
}

function matchSegments<H>(
  route: CompiledRoute<H>,
  parts: readonly string[],
): Record<string, string> | undefined {
  const segments = route.segments;
  // most routes tried fail on the count of segments: no params object for them
  if (route.length === -1 ? parts.length < route.minLength : parts.length !== route.length)
    return undefined;
  const params: Record<string, string> = {};
  // the segments after a `*` match the path's last ones: `shift` is how many the `*` takes,
  // less the one place it holds in the pattern
  const shift = parts.length - segments.length;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    if (segment.kind === 'rest') {
      params['*'] = parts.slice(i, i + shift + 1).join('/');
      continue;
    }
    const part = parts[route.restAt !== -1 && i > route.restAt ? i + shift : i];
    if (part === undefined) return undefined;
    if (segment.kind === 'static') {
      if (part !== segment.value) return undefined;
    } else {
      params[segment.name] = part; // as sent: the services compare raw path segments
    }
  }
  return params;
}

/**
 * The non-empty segments of a path, as `path.split('/').filter(Boolean)` gives them, with
 * one array instead of two and no callback per segment (every request is routed).
 */
function segmentsOf(path: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (;;) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    if (end > start) parts.push(path.slice(start, end));
    if (slash === -1) return parts;
    start = slash + 1;
  }
}

const NO_ROUTES: readonly never[] = [];

export interface Router<H> {
  add(routes: readonly RouteOf<H>[]): void;
  match(method: string, path: string): RouteMatch<H>;
}

/**
 * @example const router = createRouter(); router.add([{ method: 'GET', path: '/_sim/state', handler }]);
 */
export function createRouter<H>(): Router<H> {
  // bucketed by the first segment (ingest is the hot path: a channel URL skips every /_sim/
  // route at one map lookup); routes whose first segment is not static come after them, as
  // their rank is lower
  const byFirst = new Map<string, CompiledRoute<H>[]>();
  const rest: CompiledRoute<H>[] = [];
  const unsorted = new Set<CompiledRoute<H>[]>();
  const byRank = (a: CompiledRoute<H>, b: CompiledRoute<H>) =>
    a.rank < b.rank ? 1 : a.rank > b.rank ? -1 : 0;
  /**
   * The last request's route, found: a client sends to one URL request after request (a
   * channel's, a bot's webhook), and the same path finds the same route and params. Its
   * params are frozen, as they are shared; adding routes forgets it.
   */
  let last: { method: string; path: string; found: RouteMatch<H> } | undefined;
  return {
    add(more) {
      last = undefined;
      for (const route of more.map((r) => compile(r))) {
        const first = route.segments[0];
        let list = rest;
        if (first?.kind === 'static') {
          list = byFirst.get(first.value) ?? [];
          byFirst.set(first.value, list);
        }
        list.push(route);
        unsorted.add(list);
      }
    },
    match(method, path) {
      // sorted once, at the first request after the services were added (a platform adds
      // them one by one; replay starts one platform per conversation)
      if (unsorted.size > 0) {
        for (const list of unsorted) list.sort(byRank);
        unsorted.clear();
      }
      if (last !== undefined && last.path === path && last.method === method) return last.found;
      const parts = segmentsOf(path);
      let allow: string[] | undefined;
      // the most specific pattern that matches the path owns it: a less specific one (a
      // channel's `/:random/:channel`) never answers a path a static route claims
      let owner: string | undefined;
      // the bucket of the first segment, then the routes that start with a param or `*`
      const first: readonly CompiledRoute<H>[] = byFirst.get(parts[0] ?? '') ?? NO_ROUTES;
      for (let i = 0; i < first.length + rest.length; i++) {
        const route = (i < first.length ? first[i] : rest[i - first.length]) as CompiledRoute<H>;
        if (owner !== undefined && route.rank !== owner) {
          return { kind: 'method', allow: [...new Set(allow)] };
        }
        const params = matchSegments(route, parts);
        if (!params) continue;
        if (route.anyMethod || route.methods.includes(method)) {
          const found = { kind: 'found' as const, handler: route.handler, params };
          Object.freeze(params);
          last = { method, path, found };
          return found;
        }
        owner = route.rank;
        allow = [...(allow ?? []), ...route.methods];
      }
      return allow ? { kind: 'method', allow: [...new Set(allow)] } : { kind: 'none' };
    },
  };
}
