/**
 * Whether this process owns the terminal, and leaving the terminal's modes as this process
 * found them. A job started with `&` shares the terminal but is not in its foreground process
 * group: reading the terminal or changing its modes stops the job (SIGTTIN, SIGTTOU), and a
 * mode it writes on exit overwrites whatever the foreground program set meanwhile.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * True when stdin is a terminal and this process is its foreground job. On Linux from
 * /proc/self/stat (process group vs the terminal's foreground group); where that cannot be
 * read, a terminal counts as foreground (what every other tool assumes).
 * @example if (isForegroundJob(ctx.stdin)) startConsole();
 */
export function isForegroundJob(
  stdin: { isTTY?: boolean },
  readStat: () => string = () => readFileSync('/proc/self/stat', 'utf8'),
): boolean {
  if (!stdin.isTTY) return false;
  let stat: string;
  try {
    stat = readStat();
  } catch {
    return true;
  }
  // fields after "pid (comm)": state ppid pgrp session tty_nr tpgid ...; comm may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const pgrp = Number(fields[2]);
  const tpgid = Number(fields[5]);
  if (!Number.isInteger(pgrp) || !Number.isInteger(tpgid)) return true;
  return tpgid > 0 && pgrp === tpgid;
}

/**
 * Calls `onForeground` once this background job is brought to the foreground (`fg`). The
 * shell sends a running job no signal when it hands it the terminal, so the job looks every
 * `intervalMs` (one small read of /proc; the timer keeps no process alive).
 * @example const stop = whenForeground(ctx.stdin, () => startConsole());
 */
export function whenForeground(
  stdin: { isTTY?: boolean },
  onForeground: () => void,
  intervalMs = 250,
): () => void {
  const timer = setInterval(() => {
    if (!isForegroundJob(stdin)) return;
    clearInterval(timer);
    onForeground();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

interface RawCapable {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (on: boolean) => unknown;
}

/**
 * Leaves the terminal's modes as this process found them, just before it exits. A keyboard
 * this process made raw is given back (Node restores the modes it saw when raw mode began),
 * and only in the foreground, where writing modes does not stop the job. Then Node's own
 * restore at exit is skipped: it writes back the modes of the process's start, which for a job
 * started while another program had the terminal raw (a background `bot-sim` beside the
 * platform's console) would leave the shell raw, Ctrl-C dead. Node skips a standard stream
 * that no longer names the file it named at start, so each one on a terminal is pointed at
 * /dev/null (all output is written by now: writes to a terminal are synchronous).
 * @example releaseTerminal(openedStdin); process.exit(code);
 */
export function releaseTerminal(stdin: RawCapable | undefined): void {
  try {
    if (stdin?.isRaw && isForegroundJob(stdin)) stdin.setRawMode?.(false);
  } catch {
    // a terminal that is gone has no modes to give back
  }
  for (const fd of [0, 1, 2]) {
    if (!isatty(fd)) continue;
    try {
      closeSync(fd);
      openSync('/dev/null', fd === 0 ? 'r' : 'w'); // the lowest free descriptor: fd again
    } catch {
      // a descriptor that cannot be closed keeps Node's restore; nothing else to do
    }
  }
}
