/**
 * What the platform's agent console says when its input ends (Ctrl-D, or stdin closed): the
 * simulator keeps serving, so a silent end looked like the console had died.
 */
export const CONSOLE_CLOSED =
  'console closed (end of input): agent lines are no longer read; the platform keeps running, Ctrl-C stops it';
