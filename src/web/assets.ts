import { extname } from 'node:path';
import { SvcError } from '../errors.js';
import { packageFiles } from '../package-files.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export interface Asset {
  body: string;
  contentType: string;
}

/**
 * Reads one built browser file; undefined for names outside the page's folder.
 * @example readAsset('console', 'index.html')
 */
export function readAsset(page: 'console' | 'demo' | 'widget', file: string): Asset | undefined {
  if (!/^[\w-]+\.(html|css|js)$/.test(file)) return undefined; // no path segments, no dot files
  // the built browser files: dist/web/<page>/ and dist/widget/svc-widget.js (scripts/build-*.js)
  const body = packageFiles().read(
    page === 'widget' ? `dist/widget/${file}` : `dist/web/${page}/${file}`,
  );
  if (body === undefined) return undefined;
  return { body, contentType: TYPES[extname(file)] ?? 'text/plain' };
}

/** Like readAsset, for files the command cannot run without. */
export function requireAsset(page: 'console' | 'demo' | 'widget', file: string): Asset {
  const asset = readAsset(page, file);
  if (!asset) {
    throw new SvcError(
      'SVC_E_WEB_ASSETS',
      `Could not find the built page file ${page}/${file}.`,
      'Run `npm run build` (it bundles the web console, the demo page and svc-widget.js).',
    );
  }
  return asset;
}
