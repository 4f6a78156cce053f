import { describe, expect, it } from 'vitest';
import { classifyFailure, tlsProblem } from '../../src/http/client.js';

/** An error shaped as node's TLS errors are, wrapped as undici's fetch wraps them. */
function wrapped(code: string, message = 'x', extra: Record<string, unknown> = {}): Error {
  const inner = Object.assign(new Error(message), { code }, extra);
  return Object.assign(new TypeError('fetch failed'), { cause: inner });
}

describe('TLS failures in one line (classifyFailure)', () => {
  it.each([
    [
      'plain HTTP at an https:// URL',
      wrapped(
        'ERR_SSL_WRONG_VERSION_NUMBER',
        '80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/ssl/record.c:355:',
      ),
      'tls',
      'the server speaks plain HTTP, not TLS: use an http:// URL instead of https://',
    ],
    [
      'self-signed',
      wrapped('DEPTH_ZERO_SELF_SIGNED_CERT'),
      'untrusted',
      "the server's certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT): pass --ca <pem> to trust it, or --insecure to skip the check",
    ],
    [
      'untrusted CA',
      wrapped('UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      'untrusted',
      "the server's certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE): pass --ca <pem> to trust its CA, or --insecure to skip the check",
    ],
    [
      'expired',
      wrapped('CERT_HAS_EXPIRED'),
      'untrusted',
      "the server's certificate has expired (CERT_HAS_EXPIRED): renew it on the server, or --insecure to skip the check",
    ],
    [
      'host name mismatch',
      wrapped('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", {
        cert: { subjectaltname: 'DNS:example.test' },
      }),
      'untrusted',
      "the server's certificate is for another host name (it names DNS:example.test): use a host name it names, or --insecure to skip the check",
    ],
    [
      'handshake timeout',
      wrapped('ERR_TLS_HANDSHAKE_TIMEOUT'),
      'tls',
      'the TLS handshake did not finish in time: check that the server serves HTTPS on this port (for plain HTTP use http://)',
    ],
    [
      'a connect timeout (undici: the handshake included)',
      wrapped('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'),
      'timeout',
      'the connection did not complete in time (for an https:// URL, the TLS handshake: check that the server serves HTTPS on this port)',
    ],
    [
      'any other OpenSSL failure',
      wrapped('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'SSL routines:tlsv1 alert protocol version'),
      'tls',
      'the TLS handshake failed (ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION): check that the server serves HTTPS on this port, with a TLS version node supports',
    ],
  ])('%s', (_name, error, reason, message) => {
    expect(classifyFailure(error)).toEqual({ reason, message });
    expect(message).not.toMatch(/SSL routines|openssl/);
  });

  it('leaves other failures alone', () => {
    expect(tlsProblem(wrapped('ECONNREFUSED'))).toBeUndefined();
    expect(classifyFailure(wrapped('ECONNREFUSED')).reason).toBe('refused');
  });
});
