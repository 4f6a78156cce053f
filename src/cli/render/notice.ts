/**
 * A diagnostic line on stderr. With --json every line a run prints is a typed object, the
 * notices too (the certificate a --tls server generated, the --insecure warning), shaped as
 * the simulator's own `notice` events: `{"type":"notice","level":"warning","message":...}`.
 * @example ctx.stderr.write(noticeLine('warning: --insecure: ...', json));
 */
export function noticeLine(text: string, json: boolean): string {
  if (!json) return `${text}\n`;
  const warning = text.startsWith('warning: ');
  return `${JSON.stringify({
    type: 'notice',
    level: warning ? 'warning' : 'info',
    message: warning ? text.slice('warning: '.length) : text,
  })}\n`;
}
