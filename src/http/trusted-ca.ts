/**
 * The trust `--ca` and `--insecure` gave this process's HTTPS calls, noted by
 * src/cli/client-trust.ts when it applies them to undici's dispatcher: an untrusted
 * certificate's message names the --ca files as not holding it (instead of asking for a --ca
 * that was given), and the reachability probe (reach.ts) makes its TLS handshake with the same
 * trust. Apart from src/http/client.ts: that module loads undici, which commands that call no
 * URL do not load at start.
 */
export interface ClientTrust {
  /** the --ca files given */
  files: readonly string[];
  /** the certificates trusted (the system's, NODE_EXTRA_CA_CERTS and --ca), when --ca was given */
  ca?: readonly string[];
  /** --insecure: certificates are not verified */
  insecure: boolean;
}

let trust: ClientTrust = { files: [], insecure: false };

/**
 * Notes the trust applied.
 * @example noteClientTrust({ files: ['proxy-cert.pem'], ca, insecure: false })
 */
export function noteClientTrust(next: ClientTrust): void {
  trust = next;
}

/** The trust applied (node's own when neither flag was given). */
export function clientTrust(): ClientTrust {
  return trust;
}

/**
 * "pass --ca <pem> to trust it", or, with --ca given, that its files do not hold the
 * certificate (or the CA that signed it).
 * @example caHint('it') // "pass --ca <pem> to trust it"
 */
export function caHint(what: 'it' | 'its CA'): string {
  if (trust.files.length === 0) return `pass --ca <pem> to trust ${what}`;
  const held = what === 'it' ? 'it' : 'the CA that signed it';
  return `--ca ${trust.files.join(', ')} does not hold ${held} (a certificate svc-cli makes for --tls is new at each start: give the file its --tls-cert-out wrote this time)`;
}
