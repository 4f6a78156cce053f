/**
 * The state of a journal's file (`--record`) and what a failed write to it means. A full disk
 * is a fault of the recording, not of the simulation: the journal stops writing, cuts its file
 * back to the last whole line and keeps serving; its owner decides what happens next.
 */
import { fsyncSync, writeSync } from 'node:fs';

/**
 * When a record reaches the file: `batched` on the next event-loop turn (at most every 10 ms
 * under load), `write` before its answer is sent, `fsync` written and synced to the device.
 */
export type RecordSync = 'batched' | 'write' | 'fsync';

/** A write to the recording that failed, as data. */
export interface RecordingFailure {
  /** the system's code: ENOSPC, EDQUOT, EIO, EROFS, EFBIG, EPIPE ... */
  code: string;
  /** what it means, for a sentence: "the disk is full" */
  reason: string;
}

/** What `GET /_sim/journal` and `/_sim/state` say about the recording. */
export interface RecordingStatus {
  /** `off`: no file; `stopped`: a write failed and the journal no longer writes its file */
  state: 'off' | 'recording' | 'stopped';
  file?: string;
  sync: RecordSync;
  /** records whole in the file (this session's) */
  written: number;
  /** records made since the recording stopped (kept in memory only, the last 1,000) */
  notWritten: number;
  failure?: RecordingFailure;
}

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than the system allows',
  EIO: 'the disk reported an input/output error',
  EROFS: 'the file system is read-only',
  EPIPE: 'the reader of the file went away',
  EBADF: 'the file was closed',
  ENOENT: 'the folder of the file was removed',
  EACCES: 'permission was denied',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open on the system',
};

/**
 * The failure a write error stands for.
 * @example failureOf(Object.assign(new Error('x'), { code: 'ENOSPC' })) // { code: 'ENOSPC', reason: 'the disk is full' }
 */
export function failureOf(error: unknown): RecordingFailure {
  const raw = (error as NodeJS.ErrnoException | undefined)?.code;
  const code = typeof raw === 'string' ? raw : 'EUNKNOWN';
  const message = error instanceof Error ? error.message : String(error);
  return { code, reason: REASONS[code] ?? `the write failed (${message})` };
}

/**
 * Writes all of `text` to `fd` and returns its byte length. `writeSync` may write part of it
 * (a disk that fills up mid-write): the rest is written until done or until a write throws.
 */
export function writeWhole(fd: number, text: string): number {
  const written = writeSync(fd, text);
  const bytes = Buffer.byteLength(text);
  if (written < bytes) {
    const rest = Buffer.from(text).subarray(written);
    let at = 0;
    while (at < rest.length) at += writeSync(fd, rest, at, rest.length - at);
  }
  return bytes;
}

/** `fsync` where the file supports it (a pipe or a terminal does not: EINVAL is no failure). */
export function syncFile(fd: number): void {
  try {
    fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP') throw error;
  }
}
