import type { KindInfo } from '../../contract/types.js';
import type { Output } from './output.js';

/** `schema --list`: an aligned table, or one `kind` event per line with --json. */
export function renderKindList(out: Output, kinds: readonly KindInfo[]): void {
  const width = Math.max(...kinds.map((k) => k.name.length), 4);
  out.line(out.chalk.bold(`${'kind'.padEnd(width)}  if  spec  description`));
  for (const kind of kinds) {
    out.event(
      { type: 'kind', ...kind },
      (_e, c) =>
        `${c.cyan(kind.name.padEnd(width))}  ${kind.interface}   ${kind.spec.padEnd(4)}  ${kind.description} ${c.dim(`(${kind.direction})`)}`,
    );
  }
}
