/**
 * `--ca` and `--insecure`: the trust of every outgoing HTTPS call of this process,
 * set once when a command resolves its options. undici's global dispatcher is shared by every
 * undici call and node's fetch. undici is loaded with a synchronous require only when one of
 * the flags is given, so commands that call no URL start as fast as before.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Tls from 'node:tls';
import type * as Undici from 'undici';
import { SvcError } from '../errors.js';
import { readInputFileSync } from '../io/input-file.js';
import { noticeLine } from './render/notice.js';
import { noteClientTrust } from '../http/trusted-ca.js';

type UndiciModule = typeof Undici;

export interface ClientTrustOptions {
  ca: readonly string[];
  insecure: boolean;
}

function readCa(cwd: string, file: string): string {
  const text = readInputFileSync({
    kind: 'ca',
    given: file,
    flag: '--ca',
    cwd,
    code: 'SVC_E_TLS_FILE',
  });
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SvcError('SVC_E_TLS_FILE', `${file} (--ca) holds no PEM certificate.`);
  }
  return text;
}

/** node reads NODE_EXTRA_CA_CERTS into its default store, but an explicit `ca` replaces it. */
function extraFromEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file === undefined || file === '') return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return []; // node warns about an unreadable NODE_EXTRA_CA_CERTS itself
  }
}

/**
 * Applies `--ca` / `--insecure`; without them nothing changes (node's own trust applies).
 * @example applyClientTrust(ctx, { ca: ['ca.pem'], insecure: false })
 */
export function applyClientTrust(
  ctx: {
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    stderr: { write(text: string): unknown };
  },
  options: ClientTrustOptions,
  json = false,
): void {
  if (!options.insecure && options.ca.length === 0) return;
  const require = createRequire(import.meta.url);
  const undici = require('undici') as UndiciModule;
  if (options.insecure) {
    ctx.stderr.write(
      noticeLine(
        'warning: --insecure: the certificates of https:// URLs are not verified; anyone on the path can read and change the traffic.',
        json,
      ),
    );
    undici.setGlobalDispatcher(new undici.Agent({ connect: { rejectUnauthorized: false } }));
    noteClientTrust({ files: [], insecure: true });
    return;
  }
  // node:tls only when a CA is given: loading it costs every other start
  const { rootCertificates } = require('node:tls') as typeof Tls;
  const ca = [
    ...rootCertificates,
    ...extraFromEnvironment(ctx.env),
    ...options.ca.map((file) => readCa(ctx.cwd, file)),
  ];
  undici.setGlobalDispatcher(new undici.Agent({ connect: { ca } }));
  noteClientTrust({ files: options.ca, ca, insecure: false });
}
