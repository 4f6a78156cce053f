/**
 * Whether this process owns the terminal (issue 21): a job started with `&` shares the
 * terminal but is not in its foreground process group, and reading it or changing its mode
 * stops the job (SIGTTIN, SIGTTOU: "Stopped (tty output)"). A serving command reads the
 * terminal and draws spinners only in the foreground.
 */
import { readFileSync } from 'node:fs';

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
