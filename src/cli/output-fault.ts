/**
 * A write to stdout or stderr that failed for a reason other than a reader that left
 * (`> /dev/full`, a full disk, a quota): a fault of the machine, exit 5 with `SVC_E_DISK`,
 * never an unhandled 'error' event and its stack trace. Part of the start-up bundle: it
 * imports only what main.ts already loads.
 */
import { SvcError } from '../errors.js';
import { failureOf } from '../journal/recording.js';

/** Write errors of an output that are no fault: its reader left (`| head -1`). */
const READER_GONE: ReadonlySet<string> = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/** Whether a stream's write error means the output could not be written (not a reader gone). */
export function isOutputFault(error: NodeJS.ErrnoException): boolean {
  return !READER_GONE.has(error.code ?? '');
}

/**
 * The error for an output the machine refused.
 * @example outputFault('stdout', Object.assign(new Error('x'), { code: 'ENOSPC' })).code // 'SVC_E_DISK'
 */
export function outputFault(stream: 'stdout' | 'stderr', error: NodeJS.ErrnoException): SvcError {
  const { code, reason } = failureOf(error);
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  return new SvcError(
    'SVC_E_DISK',
    `Could not write to ${stream}: ${reason} (${code}).`,
    full
      ? 'Free space on the disk, or send the output to another one, and run it again.'
      : `Send ${stream} to another file, and run it again.`,
    { cause: error },
  );
}
