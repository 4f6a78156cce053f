import type { ChalkInstance } from 'chalk';

/** One row of `svc-cli config` (`--json`: this object as one NDJSON line). */
export interface ConfigRowEvent {
  type: 'config';
  key: string;
  /** absent when unset */
  value?: unknown;
  source: 'file' | 'env' | 'flag' | 'default';
  /** the file or the variable the value came from */
  from?: string;
  /** the SVC_* variable this key reads */
  env?: string;
  /** why the value is invalid */
  problem?: string;
}

/** `port          9000                    env      SVC_PORT` */
export function formatConfigRow(row: ConfigRowEvent, c: ChalkInstance): string {
  // padded before it is coloured: the colour codes take no column on a terminal
  const value =
    row.value === undefined ? c.dim('(unset)'.padEnd(36)) : JSON.stringify(row.value).padEnd(36);
  const colour =
    row.source === 'flag'
      ? c.magenta
      : row.source === 'env'
        ? c.yellow
        : row.source === 'file'
          ? c.cyan
          : c.dim;
  const mark = row.problem ? `  ${c.red('✗')} ${row.problem}` : '';
  const from = row.from ? c.dim(row.from) : row.env ? c.dim(`env ${row.env}`) : '';
  const line = `${row.key.padEnd(16)} ${value} ${colour(row.source)}${' '.repeat(8 - row.source.length)} ${from}${mark}`;
  // a row that ends at its source ends there, not in the spaces after it
  return line.trimEnd();
}
