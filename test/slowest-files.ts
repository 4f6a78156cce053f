/**
 * A reporter beside vitest's default one: after the run, the ten slowest test files (import,
 * collection and their tests), so a file that grows slow shows at the end of every `npm test`.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        const ms = d.collectDuration + d.setupDuration + d.prepareDuration + d.duration;
        return { ms, file: relative(process.cwd(), m.moduleId), project: m.project.name };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (rows.length === 0) return;
    const lines = rows.map(
      ({ ms, file, project }) =>
        `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}${project ? `  (${project})` : ''}`,
    );
    process.stdout.write(`\n Slowest ${rows.length} test files:\n${lines.join('\n')}\n`);
  }
}
