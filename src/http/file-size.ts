/**
 * A media file's size from its server (spec 2.4: `file_size` is the file's size in bytes), for
 * the consoles' `/photo <url>` and `/media` typed without a size: the reply's Content-Length
 * to a HEAD, else a GET's (the total of a one-byte range's Content-Range, or the whole reply's
 * Content-Length, read without its body). Redirects are followed, as a browser would. Nothing
 * is made up: a server that tells neither gives a reason, and the console asks for the size.
 */
import { Agent, Dispatcher, getGlobalDispatcher, interceptors } from 'undici';
import type { Clock } from '../clock.js';
import { getText, headOf, type FailureReason, type PostOutcome } from './client.js';

/** `failure`: the file's server was not reached (a network failure: the command exits 3) */
export type FileSize =
  { ok: true; size: number; from: string } | { ok: false; reason: string; failure?: FailureReason };

const MAX_REDIRECTIONS = 5;

/**
 * What to do about a file given as a local path or another non-http(s) link: the platform
 * fetches a media message's file from its link (spec 2.4), so a size would not help.
 */
export const FILE_LINK_HINT =
  'A media message carries a link the platform fetches the file from (spec 2.4): serve a local file over HTTP (python3 -m http.server in its folder, say) and give its http(s) URL.';

/** True when the file is no http(s) link at all (a local path), so no size would help. */
export const isNoFileLink = (size: FileSize): boolean =>
  !size.ok && size.failure === undefined && size.reason.startsWith('not a');

const lengthOf = (text: string | undefined): number | undefined => {
  const n = text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
};

const failure = (outcome: PostOutcome): string =>
  outcome.ok ? `HTTP ${outcome.status}` : outcome.message;

const EMPTY = 'the file is empty (a size of 0; spec 2.4 wants a positive size)';

/** A size read off a reply, or why there is none. */
function sizeOf(outcome: PostOutcome): FileSize | undefined {
  if (!outcome.ok) return undefined;
  const { status, headers } = outcome;
  const size =
    status === 206
      ? lengthOf(/\/\s*(\d+)\s*$/.exec(headers['content-range'] ?? '')?.[1])
      : status === 200
        ? lengthOf(headers['content-length'])
        : undefined;
  if (size === undefined) return undefined;
  if (size === 0) return { ok: false, reason: EMPTY };
  return { ok: true, size, from: status === 206 ? 'Content-Range' : 'Content-Length' };
}

/**
 * @example await learnFileSize({ url: 'https://cdn.example/cat.jpg', clock, timeoutMs: 5000 }) // { ok: true, size: 48213, from: 'Content-Length' }
 */
export async function learnFileSize(options: {
  url: string;
  clock: Clock;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<FileSize> {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'not an http(s) URL (spec 2.4)' };
  const common = {
    url: options.url,
    clock: options.clock,
    timeoutMs: options.timeoutMs,
    // the global dispatcher keeps --ca and --insecure; redirects as a browser follows them
    dispatcher: redirecting(),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const head = await headOf(common);
  if (!head.ok) return { ok: false, reason: head.message, failure: head.reason };
  const fromHead = head.status === 200 ? sizeOf(head) : undefined;
  if (fromHead) return fromHead;
  // a server that refuses HEAD or leaves its length out may still say it to a GET
  const got = await getText({ ...common, headers: { range: 'bytes=0-0' }, headersOnly: true });
  const fromGet = sizeOf(got);
  if (fromGet) return fromGet;
  if (!got.ok) return { ok: false, reason: got.message, failure: got.reason };
  if (got.status !== 200 && got.status !== 206)
    return {
      ok: false,
      reason:
        head.status === got.status ? failure(got) : `HEAD: ${failure(head)}; GET: ${failure(got)}`,
    };
  return { ok: false, reason: 'the server did not say its size' };
}

let dispatcher: { base: Dispatcher; composed: Dispatcher } | undefined;
/** This undici's own agent, when the global one is another undici's */
let own: Agent | undefined;

/**
 * The global dispatcher (set once per command: --ca, --insecure) following redirects. Node's
 * own `fetch`, run in the process before this undici was loaded, installs the agent of Node's
 * bundled undici as the global one; the redirect interceptor speaks this undici's handler API,
 * which that agent refuses ("invalid onError method"), so it gets this undici's own agent.
 */
function redirecting(): Dispatcher {
  const global = getGlobalDispatcher();
  const base = global instanceof Dispatcher ? global : (own ??= new Agent());
  if (dispatcher?.base !== base)
    dispatcher = {
      base,
      composed: base.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS })),
    };
  return dispatcher.composed;
}
