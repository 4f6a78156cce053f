/**
 * Writes a file whole or not at all: to a temporary name beside it, then renamed over it. A
 * disk that fills up mid-write leaves the old file (or none), never half a report that reads
 * as complete; the temporary is removed. A write the machine refused (a full disk, a quota,
 * an I/O error, a read-only file system) is an error of category `system` (exit 5).
 */
import { closeSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { DISK_CODES, SvcError, systemReason } from '../errors.js';
import { failureOf } from '../journal/recording.js';

/** The error for a file that could not be written; `shown` is the name the user gave. */
export function writeError(error: unknown, shown: string): SvcError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (DISK_CODES.has(code)) {
    return new SvcError(
      'SVC_E_DISK',
      `Could not write ${shown}: ${failureOf(error).reason} (${code}); nothing was written to it.`,
      'Free space on the disk, or write to another one, and run it again.',
      { cause: error },
    );
  }
  return new SvcError('SVC_E_WRITE', `Could not write ${shown}: ${systemReason(error)}.`);
}

const temporaryOf = (path: string): string => `${path}.${process.pid}.tmp`;

/**
 * Whether `path` is there and no regular file: a device, a pipe or a socket (`--out
 * /dev/null`, `--out /dev/stdout`, a FIFO a script reads). It is written straight: a
 * temporary renamed over it would replace the device with a file (as root, /dev/null became
 * a regular file that later runs read as their stdin) or fail beside it (/dev is not
 * writable to others), and a device has no half-written state to avoid.
 * @example isSpecialFile('/dev/null') // true
 */
export function isSpecialFile(path: string): boolean {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat !== undefined && !stat.isFile() && !stat.isDirectory();
  } catch {
    return false;
  }
}

/**
 * @example writeFileWhole(resolve(cwd, 'report.xml'), xml, 'report.xml');
 */
export function writeFileWhole(path: string, text: string | Uint8Array, shown = path): void {
  if (isSpecialFile(path)) {
    try {
      writeFileSync(path, text);
      return;
    } catch (error) {
      throw writeError(error, shown);
    }
  }
  const tmp = temporaryOf(path);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw writeError(error, shown);
  }
}

/** `writeFileWhole` without blocking. */
export async function writeFileWholeAsync(
  path: string,
  text: string | Uint8Array,
  shown = path,
): Promise<void> {
  if (isSpecialFile(path)) {
    try {
      await fs.writeFile(path, text);
      return;
    } catch (error) {
      throw writeError(error, shown);
    }
  }
  const tmp = temporaryOf(path);
  try {
    await fs.writeFile(tmp, text);
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw writeError(error, shown);
  }
}

/** A file written in pieces that replaces `path` only when whole (`openWhole`). */
export interface WholeFile {
  readonly fd: number;
  /** closes it and puts it in place of `path` */
  commit(): void;
  /** closes it and leaves `path` as it was (a failed run does not replace the last report) */
  discard(): void;
}

/**
 * `writeFileWhole` for a file written as it streams: pieces go to the temporary, and only a
 * run that got to its end replaces `path`. A recording that cannot be read leaves last
 * week's report as it was.
 * @example const file = openWhole(out, 'report.html'); writeSync(file.fd, html); file.commit();
 */
export function openWhole(path: string, shown = path): WholeFile {
  const special = isSpecialFile(path);
  const target = special ? path : temporaryOf(path);
  let fd: number;
  try {
    fd = openSync(target, 'w');
  } catch (error) {
    throw writeError(error, shown);
  }
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
  return {
    fd,
    commit() {
      close();
      if (special) return;
      try {
        renameSync(target, path);
      } catch (error) {
        rmSync(target, { force: true });
        throw writeError(error, shown);
      }
    },
    discard() {
      close();
      if (!special) rmSync(target, { force: true });
    },
  };
}
