import type { PlatformResponse, PlatformService } from '../platform/types.js';
import { errorBody } from '../http/body.js';
import { readAsset, requireAsset } from './assets.js';

const redirect = (location: string): PlatformResponse => ({
  status: 302,
  headers: { location },
  record: { iface: 'control' },
});

/**
 * How many of the newest events a platform serving the console keeps, so a console opened or
 * reloaded later shows the Activity panel and delivery timelines it did not see happen.
 */
export const CONSOLE_EVENT_HISTORY = 1000;

/**
 * The agent web console (`svc-cli platform --web`): static files under /_sim/console/ (read
 * quietly: GETs under /_sim/ stay out of the journal); `/` leads there. The page itself talks
 * to the control API (GET /_sim/events, /_sim/chats, /_sim/journal ...).
 */
export function createConsoleService(
  options: {
    /** the demo page served beside the console (`widget`), once it listens */
    pageUrl?: () => string | undefined;
  } = {},
): PlatformService {
  requireAsset('console', 'index.html'); // fail at start, not at the first page load
  return {
    name: 'console',
    routes: [
      { method: ['GET', 'HEAD'], path: '/', handler: () => redirect('/_sim/console/') },
      {
        method: ['GET', 'HEAD'],
        path: '/favicon.ico',
        handler: () => ({ status: 204, record: { iface: 'control' } }),
      },
      {
        method: ['GET', 'HEAD'],
        path: '/_sim/console/*',
        handler(request, params) {
          // /_sim/console (no slash): relative links need the folder URL
          if (!request.path.endsWith('/') && params['*'] === '') return redirect('/_sim/console/');
          // what the command serving the console adds: the empty chat list points at the page
          if (params['*'] === 'context.json') {
            const pageUrl = options.pageUrl?.();
            return {
              status: 200,
              body: JSON.stringify(pageUrl === undefined ? {} : { pageUrl }),
              headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
              record: { iface: 'control' },
            };
          }
          const asset = readAsset('console', params['*'] || 'index.html');
          if (!asset) {
            return {
              status: 404,
              body: errorBody('not_found', `no console file ${request.path}`),
              record: { iface: 'control' },
            };
          }
          return {
            status: 200,
            body: asset.body,
            headers: { 'content-type': asset.contentType, 'cache-control': 'no-cache' },
            record: { iface: 'control' },
          };
        },
      },
    ],
  };
}
