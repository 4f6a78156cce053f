/**
 * The platform's routes as data: each service declares `{ method, path, handler }`; the core
 * matches once (the matcher, src/http/router.ts, that the roles and the proxy share), answers
 * 404 and 405 once, and maps an error to its status once.
 */
import {
  createRouter as createMatcher,
  type RouteMatch as Match,
  type Router as Matcher,
} from '../http/router.js';
import type { RouteHandler } from './types.js';

export type { Route, RouteHandler } from './types.js';

export type RouteMatch = Match<RouteHandler>;
export type Router = Matcher<RouteHandler>;

/**
 * @example const router = createRouter(); router.add([{ method: 'GET', path: '/_sim/state', handler }]);
 */
export const createRouter = (): Router => createMatcher<RouteHandler>();
