/**
 * Is anything listening at a peer's URL: one TCP connection (and, for HTTPS, a TLS handshake
 * with a certificate this process trusts, nothing sent after it), before a command that talks
 * to the peer starts. `--wait` (conform,
 * replay, load, the send commands, hook-fire) keeps trying for a peer started in the
 * background just before.
 */
import { connect, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { setTimeout as delay } from 'node:timers/promises';
import { SvcError } from '../errors.js';
import { tlsProblem } from './client.js';
import { clientTrust } from './trusted-ca.js';

/** The end of a refused connection's hint in every command that takes `--wait`. */
export const WAIT_HINT = 'for one still starting, --wait 10s gives it time.';

/** How long `assertReachable` tries, and what it says it was for. */
export interface ReachOptions {
  /** wall ms one connection attempt may take (default 5000) */
  wallTimeoutMs?: number;
  /** what could not be done, for the message (default: run the conformance suite) */
  action?: string;
  /** `--wait`: wall ms to keep trying, every 100 ms, for a peer still starting (default 0) */
  waitMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /**
   * the code of the failure (default SVC_E_PEER_UNREACHABLE): a one-off request's probe says
   * SVC_E_UNREACHABLE, as the request itself would, so --wait does not change the code
   */
  code?: 'SVC_E_PEER_UNREACHABLE' | 'SVC_E_UNREACHABLE' | 'SVC_E_HOOK_UNREACHABLE';
  /**
   * what to do, when the caller knows better than "start the service" (hook-fire: start
   * svc-cli hook-target on that port), so --wait does not change the advice either
   */
  hint?: string;
}

/**
 * Throws a network SvcError (exit 3) when nothing accepts a TCP connection at `url` (within
 * `waitMs`, with one): the peer is unreachable at all, so no case could say anything about it.
 * @example await assertReachable('http://127.0.0.1:9000/agent', 'the integrator');
 */
export async function assertReachable(
  url: string,
  who: string,
  options: ReachOptions = {},
): Promise<void> {
  const {
    wallTimeoutMs = 5000,
    action = 'run the conformance suite',
    waitMs = 0,
    code = 'SVC_E_PEER_UNREACHABLE',
  } = options;
  const parsed = new URL(url);
  const started = performance.now();
  const reason = await reach(parsed, wallTimeoutMs, waitMs, options.signal);
  if (reason !== undefined) {
    // the path is kept (the URL as given), but not a channel URL's: its random string is a
    // secret (spec 5.1)
    const where = `${who} at ${parsed.origin}${parsed.pathname === '/' || ['the platform', 'the channel'].includes(who) ? '' : parsed.pathname}`;
    // a signal ended the wait: it did not last --wait, and the run stops for the signal
    if (options.signal?.aborted)
      throw new SvcError(
        code,
        `Could not ${action}: interrupted while waiting for ${where} (${reason} until then, ${formatWait(performance.now() - started)} in).`,
      );
    throw new SvcError(
      code,
      `Could not ${action}: ${where} is unreachable (${reason}${waitMs > 0 ? `, still after ${formatWait(waitMs)}` : ''}).`,
      // every command that probes takes --wait
      `${options.hint ?? 'Start the service first, and check the URL and port'}${waitMs === 0 ? `; ${WAIT_HINT}` : '.'}`,
    );
  }
  if (parsed.protocol === 'https:') await assertTrusted(parsed, who, wallTimeoutMs, action);
}

const formatWait = (ms: number): string =>
  ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;

/** How often `reach` tries again, in wall ms. */
const RETRY_MS = 100;

/**
 * Why nothing accepted a TCP connection at `url`, or undefined once something did: tried
 * again every 100 ms for up to `waitMs` (a peer started in the background just before, as in
 * CI), or until `signal` aborts.
 */
async function reach(url: URL, wallTimeoutMs: number, waitMs: number, signal?: AbortSignal) {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const left = deadline - performance.now();
    const reason = await probe(url, left > 0 ? Math.min(left, wallTimeoutMs) : wallTimeoutMs);
    const pause = Math.min(RETRY_MS, deadline - performance.now());
    if (reason === undefined || pause <= 0 || signal?.aborted) return reason;
    // an abort ends the pause early; the next round returns
    await delay(pause, undefined, signal ? { signal } : {}).catch(() => undefined);
  }
}

/** Why nothing accepted a TCP connection at `url`'s host and port, or undefined when it did. */
function probe(url: URL, wallTimeoutMs: number): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise<string | undefined>((resolve) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`no TCP connection within ${wallTimeoutMs} ms`);
    }, wallTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === 'ECONNREFUSED' ? 'connection refused' : error.message);
    });
  });
}

/**
 * HTTPS: an untrusted certificate would fail every case with the same reason;
 * say it once, before the suite, naming --ca and --insecure (exit 3).
 */
async function assertTrusted(
  url: URL,
  who: string,
  wallTimeoutMs: number,
  action: string,
): Promise<void> {
  const error = await handshake(url, wallTimeoutMs);
  const problem = error === undefined ? undefined : tlsProblem(error);
  if (problem === undefined) return; // other trouble shows in the cases themselves
  throw new SvcError(
    problem.reason === 'tls' ? 'SVC_E_TLS' : 'SVC_E_UNTRUSTED_CERT',
    `Could not ${action}: ${who} at ${url.origin}: ${problem.message}.`,
  );
}

/**
 * A TLS handshake with `url`'s server, with the trust of the process's HTTPS calls (--ca,
 * --insecure), and nothing sent after it: a HEAD / probe reached the peer as a request of its
 * own (a proxy printed it as a request it does not forward). The handshake's error, if any.
 */
function handshake(url: URL, wallTimeoutMs: number): Promise<unknown> {
  const trust = clientTrust();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host,
      port: Number(url.port || 443),
      // SNI takes a host name, never an address
      ...(isIP(host) === 0 ? { servername: host } : {}),
      ...(trust.ca ? { ca: [...trust.ca] } : {}),
      rejectUnauthorized: !trust.insecure,
      ALPNProtocols: ['http/1.1'],
    });
    const done = (error?: unknown): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(error);
    };
    const timer = setTimeout(
      () =>
        done(
          Object.assign(new Error('TLS handshake timeout'), { code: 'ERR_TLS_HANDSHAKE_TIMEOUT' }),
        ),
      wallTimeoutMs,
    );
    socket.once('secureConnect', () => done());
    socket.once('error', done);
  });
}
