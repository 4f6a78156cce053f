/** `--tls`'s help names every address the generated certificate is for (src/http/tls.ts). */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TLS_OPTIONS } from '../../../src/cli/options/shared.js';
import { generateLoopbackCertificate } from '../../../src/http/tls.js';

describe('--tls help', () => {
  it('names each subject alternative name of the certificate generated at start', async () => {
    const tls = await generateLoopbackCertificate();
    const names = (new X509Certificate(tls.cert).subjectAltName ?? '')
      .split(', ')
      .map((entry) => entry.replace(/^(DNS|IP Address):/, ''))
      // Node writes an IPv6 address in full (0:0:0:0:0:0:0:1): its short form is what people read
      .map((name) =>
        name.includes(':') ? new URL(`http://[${name}]/`).hostname.slice(1, -1) : name,
      );
    expect(names).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '::1']));
    const help = TLS_OPTIONS.find((option) => option.key === 'tls')?.description ?? '';
    for (const name of names) expect(help).toContain(name);
  });
});
