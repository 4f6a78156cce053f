import type { ChalkInstance } from 'chalk';

/** One doctor check (`--json`: this object as one NDJSON line). */
export interface CheckEvent {
  type: 'check';
  /** node, config, channel, integrator, botProvider, hook, widget, urls */
  name: string;
  status: 'pass' | 'warn' | 'fail' | 'unreachable';
  detail: string;
}

/** `✓ node        Node 22.3.0 (svc-cli needs >= 20.19)` */
export function formatCheck(check: CheckEvent, c: ChalkInstance): string {
  const mark =
    check.status === 'pass' ? c.green('✓') : check.status === 'warn' ? c.yellow('!') : c.red('✗');
  return `${mark} ${check.name.padEnd(12)} ${check.status === 'pass' ? check.detail : check.status === 'warn' ? c.yellow(check.detail) : c.red(check.detail)}`;
}
