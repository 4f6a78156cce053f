/** What the banners of `platform` and `widget` say about the control token (docs/SECURITY.md). */
import type { Output } from './render/output.js';
import type { ControlAccess } from './serving-flags.js';

/**
 * The console's address; with a generated token, the token rides in the fragment (never sent
 * to the server, never in its logs): the page keeps it and sends it as Authorization.
 * @example consoleUrlOf('http://10.0.0.5:8800', { token: 't', generated: true, access: {} }) // '.../_sim/console/#token=t'
 */
export function consoleUrlOf(url: string, control: ControlAccess): string {
  const base = `${url}/_sim/console/`;
  return control.generated && control.token !== undefined
    ? `${base}#token=${encodeURIComponent(control.token)}`
    : base;
}

/** The control token's line of a banner: a generated one once, in full; a given one by name. */
export function printControlToken(out: Output, control: ControlAccess): void {
  if (control.token === undefined) return;
  out.line(
    control.generated
      ? `  control token ${out.chalk.yellow(control.token)}  ${out.chalk.dim('(send Authorization: Bearer <token>; shown once)')}`
      : `  control token ${out.chalk.dim('the one --control-token gave: send Authorization: Bearer <token>; open the console with #token=<token> after its URL')}`,
  );
}
