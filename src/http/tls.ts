/**
 * HTTPS both ways (spec 1.2, 4.3: the real platform calls over HTTPS).
 * Serving: a certificate for 127.0.0.1, ::1 and localhost generated at start (selfsigned: WebCrypto,
 * no openssl child process), or the user's `--cert` / `--key`. The calling side (`--ca`,
 * `--insecure`) is src/cli/client-trust.ts.
 */
import { X509Certificate, createHash } from 'node:crypto';
import { SvcError } from '../errors.js';
import { readInputFile } from '../io/input-file.js';

/** What a serving command's `https.createServer` gets. */
export interface TlsServerOptions {
  key: string;
  cert: string;
  /** SHA-256 fingerprint of the certificate, `AA:BB:...` */
  fingerprint: string;
  /** generated at start (true) or the user's files */
  generated: boolean;
}

function fingerprintOf(cert: string): string {
  try {
    return new X509Certificate(cert).fingerprint256;
  } catch {
    return createHash('sha256').update(cert).digest('hex');
  }
}

/**
 * A certificate for 127.0.0.1, ::1 and localhost, valid 30 days, EC P-256 (fast to make).
 * @example const tls = await generateLoopbackCertificate(); https.createServer(tls, handler)
 */
export async function generateLoopbackCertificate(): Promise<TlsServerOptions> {
  const { generate } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 30 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'svc-cli localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return {
    key: pems.private,
    cert: pems.cert,
    fingerprint: fingerprintOf(pems.cert),
    generated: true,
  };
}

/**
 * The user's certificate and key files, as given (a relative path is read from `cwd`).
 * @example await loadCertificate('cert.pem', 'key.pem')
 */
export async function loadCertificate(
  certFile: string,
  keyFile: string,
  cwd?: string,
): Promise<TlsServerOptions> {
  const read = (kind: 'cert' | 'key', given: string): Promise<string> =>
    readInputFile({ kind, given, flag: `--${kind}`, cwd, code: 'SVC_E_TLS_FILE' });
  const cert = await read('cert', certFile);
  const key = await read('key', keyFile);
  if (!cert.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SvcError('SVC_E_TLS_FILE', `${certFile} (--cert) holds no PEM certificate.`);
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) {
    throw new SvcError('SVC_E_TLS_FILE', `${keyFile} (--key) holds no PEM private key.`);
  }
  return { key, cert, fingerprint: fingerprintOf(cert), generated: false };
}
