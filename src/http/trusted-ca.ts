/**
 * The `--ca` files this process trusts, noted by src/cli/client-trust.ts when it applies them,
 * so an untrusted certificate's message says they do not hold it instead of asking for a --ca
 * that was given. Apart from src/http/client.ts: that module loads undici, which commands that
 * call no URL do not load at start.
 */
let trustedCaFiles: readonly string[] = [];

/**
 * Notes the `--ca` files given.
 * @example noteTrustedCaFiles(['proxy-cert.pem'])
 */
export function noteTrustedCaFiles(files: readonly string[]): void {
  trustedCaFiles = [...files];
}

/**
 * "pass --ca <pem> to trust it", or, with --ca given, that its files do not hold the
 * certificate (or the CA that signed it).
 * @example caHint('it') // "pass --ca <pem> to trust it"
 */
export function caHint(what: 'it' | 'its CA'): string {
  if (trustedCaFiles.length === 0) return `pass --ca <pem> to trust ${what}`;
  const held = what === 'it' ? 'it' : 'the CA that signed it';
  return `--ca ${trustedCaFiles.join(', ')} does not hold ${held} (a certificate svc-cli makes for --tls is new at each start: give the file its --tls-cert-out wrote this time)`;
}
