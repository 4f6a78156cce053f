import type { PlatformResponse, PlatformService } from '../platform/types.js';
import { readAsset, requireAsset } from './assets.js';

const redirect = (location: string): PlatformResponse => ({
  status: 302,
  headers: { location },
  record: { iface: 'control' },
});

/**
 * The agent web console (`svc-cli platform --web`): static files under /_sim/console/ (read
 * quietly: GETs under /_sim/ stay out of the journal); `/` leads there. The page itself talks
 * to the control API (GET /_sim/events, /_sim/chats, /_sim/journal ...).
 */
export function createConsoleService(): PlatformService {
  requireAsset('console', 'index.html'); // fail at start, not at the first page load
  return {
    name: 'console',
    route(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      if (request.path === '/' || request.path === '/_sim/console')
        return redirect('/_sim/console/');
      if (request.path === '/favicon.ico') return { status: 204, record: { iface: 'control' } };
      if (!request.path.startsWith('/_sim/console/')) return undefined;
      const file = request.path.slice('/_sim/console/'.length) || 'index.html';
      const asset = readAsset('console', file);
      if (!asset) return undefined; // the control API answers its 404
      return {
        status: 200,
        body: asset.body,
        headers: { 'content-type': asset.contentType, 'cache-control': 'no-cache' },
        record: { iface: 'control' },
      };
    },
  };
}
