/**
 * A media file's size from its server (spec 2.4: `file_size` is the file's size in bytes), for
 * the consoles' `/photo <url>` and `/media` typed without a size: the reply's Content-Length
 * to a HEAD, else the total of a one-byte ranged GET's Content-Range. Nothing is made up: a
 * server that tells neither gives a reason, and the console asks for the size.
 */
import type { Clock } from '../clock.js';
import { getText, headOf, type PostOutcome } from './client.js';

export type FileSize = { ok: true; size: number; from: string } | { ok: false; reason: string };

const positive = (text: string | undefined): number | undefined => {
  const n = text !== undefined && /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

const failure = (outcome: PostOutcome): string =>
  outcome.ok ? `HTTP ${outcome.status}` : outcome.message;

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
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const head = await headOf(common);
  if (head.ok && head.status === 200) {
    const size = positive(head.headers['content-length']);
    if (size !== undefined) return { ok: true, size, from: 'Content-Length' };
  }
  if (!head.ok) return { ok: false, reason: failure(head) };
  // a server that refuses HEAD or leaves its length out may still answer a range
  const ranged = await getText({
    ...common,
    headers: { range: 'bytes=0-0' },
    maxResponseBytes: 64,
  });
  if (ranged.ok && ranged.status === 206) {
    const size = positive(/\/(\d+)\s*$/.exec(ranged.headers['content-range'] ?? '')?.[1]);
    if (size !== undefined) return { ok: true, size, from: 'Content-Range' };
  }
  return {
    ok: false,
    reason: head.status === 200 ? 'the server did not say its size' : failure(head),
  };
}
