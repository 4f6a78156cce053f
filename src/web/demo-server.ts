import { listenAt, startServer, type RunningServer } from '../http/server.js';
import type { TlsServerOptions } from '../http/tls.js';
import { requireAsset, type Asset } from './assets.js';

export interface DemoServerOptions {
  /** the simulator the page's double talks to */
  platformUrl: string;
  /** the agent web console, linked from the page */
  consoleUrl?: string;
  host?: string;
  port?: number;
  /** serve HTTPS (`--tls`) */
  tls?: TlsServerOptions | undefined;
  /** `--allowed-host`: Host names served beside localhost, IP addresses and `host` */
  allowedHosts?: readonly string[] | undefined;
  /** `docs`: the page's double follows the public JS API's readings (`data-profile`) */
  profile?: 'spec' | 'docs';
}

/** HTML-escapes a value for an attribute. */
const attr = (value: string): string => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The demo page of `svc-cli widget`: a shop page that loads the page-script double
 * (svc-widget.js) with `data-platform-url`, so svc_api talks to the simulator over HTTP.
 * @example const demo = await startDemoServer({ platformUrl: platform.url, port: 0 });
 */
export async function startDemoServer(options: DemoServerOptions): Promise<RunningServer> {
  const page = requireAsset('demo', 'index.html');
  const html = page.body
    .replaceAll('{{PLATFORM_URL}}', attr(options.platformUrl.replace(/\/+$/, '')))
    .replaceAll('{{CONSOLE_URL}}', attr(options.consoleUrl ?? ''))
    .replaceAll('{{PROFILE}}', attr(options.profile ?? 'spec'));
  const files: Record<string, Asset> = {
    '/': { body: html, contentType: page.contentType },
    '/svc-widget.js': requireAsset('widget', 'svc-widget.js'),
    '/demo.js': requireAsset('demo', 'demo.js'),
    '/demo.css': requireAsset('demo', 'demo.css'),
  };
  const notFound =
    'not found: this server serves only the demo page, at /' +
    (options.consoleUrl ? `; the agent console is at ${options.consoleUrl}` : '') +
    '\n';
  return startServer({
    ...listenAt(options),
    handler(req, res) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const file = files[path === '/index.html' ? '/' : path];
      if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
        // a console path typed on the page's port (`/_sim/console/`) got a bare "not found":
        // say what this server serves, and where the console is
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(notFound);
        return;
      }
      res
        .writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-cache' })
        .end(req.method === 'HEAD' ? undefined : file.body);
    },
  });
}
