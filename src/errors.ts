/**
 * Errors as data: a stable `code`, a `category` that picks the exit code, and a hint.
 * Match on `code`, never on message text (the message may be reworded; the code is stable).
 * The category is the catalogue's for the code (src/error-codes.ts), never restated by a caller.
 *
 * @example
 * throw new SvcError('SVC_E_NO_CHAT', 'Could not answer: no chat 7.', 'GET /_sim/state lists the chats.');
 */
import { ERRORS, type CategoryOf, type ErrorCode } from './error-codes.js';
import { describeFileLimit, fileLimit, isFileLimitError } from './io/file-limit.js';
import { failureOf } from './journal/recording.js';

export type ErrorCategory = 'input' | 'contract' | 'network' | 'internal' | 'system';
export type { ErrorCode } from './error-codes.js';

/** Exit codes, documented in the README. */
export const EXIT_CODES = {
  ok: 0,
  /** contract violation or failed check */
  contract: 1,
  /** usage or input error */
  input: 2,
  /** peer unreachable or timed out */
  network: 3,
  /** a bug in svc-cli */
  internal: 4,
  /**
   * the machine failed under the run: a file could not be written (a full disk, a quota, an
   * I/O error, a read-only file system; a `--record` that stopped) or too many files are open
   */
  system: 5,
  sigint: 130,
  sigterm: 143,
} as const;

/** The codes the catalogue files under a category. */
export type CodeIn<K extends ErrorCategory> = {
  [C in ErrorCode]: CategoryOf<C> extends K ? C : never;
}[ErrorCode];

/**
 * The brand every SvcError carries. The start-up bundles (scripts/bundle-commands.mjs) hold
 * their own copy of this module beside the one the lazily imported command bodies load, so
 * `instanceof` asks for the brand, not for one class object.
 */
const BRAND = Symbol.for('svc-cli.SvcError');

export class SvcError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }

  override readonly name = 'SvcError';
  readonly code: ErrorCode;
  /** the catalogue's category of `code`: it picks the exit code */
  readonly category: ErrorCategory;
  readonly hint: string | undefined;
  readonly details: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    hint?: string,
    options?: { cause?: unknown; details?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.category = ERRORS[code].category;
    this.hint = hint;
    this.details = options?.details;
  }

  toJSON(): Record<string, unknown> {
    return {
      type: 'error',
      code: this.code,
      category: this.category,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
    };
  }
}
// on the prototype: a spread or JSON copy of an error is not branded
Object.defineProperty(SvcError.prototype, BRAND, { value: true });

/** Maps an error category to the process exit code. */
export function exitCodeFor(category: ErrorCategory): number {
  switch (category) {
    case 'input':
      return EXIT_CODES.input;
    case 'contract':
      return EXIT_CODES.contract;
    case 'network':
      return EXIT_CODES.network;
    case 'internal':
      return EXIT_CODES.internal;
    case 'system':
      return EXIT_CODES.system;
    default: {
      const never: never = category;
      throw new Error(`unknown category ${String(never)}`);
    }
  }
}

/** Shorthand constructors so call sites read as the one message template ("Could not <action>: <reason>. <what to do>"). */

export const inputError = (code: CodeIn<'input'>, message: string, hint?: string): SvcError =>
  new SvcError(code, message, hint);
export const networkError = (
  code: CodeIn<'network'>,
  message: string,
  hint?: string,
  cause?: unknown,
): SvcError => new SvcError(code, message, hint, { cause });
export const contractError = (
  code: CodeIn<'contract'>,
  message: string,
  hint?: string,
  details?: unknown,
): SvcError => new SvcError(code, message, hint, { details });

/** The system codes of a write the disk refused: full, over quota, failing, read-only. */
export const DISK_CODES: ReadonlySet<string> = new Set([
  'ENOSPC',
  'EDQUOT',
  'EIO',
  'EROFS',
  'EFBIG',
]);

/**
 * A fault of the machine (the file limit, a disk that refuses writes) as an error of category
 * `system` (exit 5), wherever it was thrown: it is no bug of svc-cli.
 */
export function machineFault(error: unknown): SvcError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (isFileLimitError(error)) {
    return new SvcError(
      'SVC_E_FILE_LIMIT',
      `Could not run: ${describeFileLimit(fileLimit(), code)}.`,
      undefined,
      { cause: error },
    );
  }
  if (!DISK_CODES.has(code)) return undefined;
  const path = (error as NodeJS.ErrnoException).path;
  return new SvcError(
    'SVC_E_DISK',
    `Could not write${path ? ` ${path}` : ''}: ${failureOf(error).reason} (${code}).`,
    'Free space on the disk (or write to another one) and run it again.',
    { cause: error },
  );
}

/** Wraps anything thrown into an SvcError; unknown throwables become internal errors. */
/** The message of anything thrown (an Error's message, else its string form). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function toSvcError(error: unknown): SvcError {
  if (error instanceof SvcError) return error;
  const machine = machineFault(error);
  if (machine) return machine;
  const message = errorText(error);
  return new SvcError(
    'SVC_E_INTERNAL',
    `Unexpected error: ${message}`,
    'This is a bug in svc-cli; please report it with the command you ran.',
    { cause: error },
  );
}

/** Plain words for the system errors a user meets (files, ports), by errno code. */
const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links (a link that leads back to itself)',
  ENOSPC: 'no space left on the disk',
  EROFS: 'the file system is read-only',
  EMFILE: 'too many open files',
  EADDRINUSE: 'another program already listens on that port',
  EADDRNOTAVAIL: 'this machine has no such address',
  ECONNREFUSED: 'nothing listens there (connection refused)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'no such host',
  EHOSTUNREACH: 'the host cannot be reached',
};

/**
 * Why a file or socket operation failed, in plain words (never `ENOENT: ..., open '/x'`).
 * @example systemReason(Object.assign(new Error('x'), { code: 'ENOENT' })) // 'no such file or folder'
 */
export function systemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && SYSTEM_REASONS[code]) return SYSTEM_REASONS[code];
  return errorText(error);
}
