// npm run bench: runs each section and prints one table. A section is a module exporting
// `async function run()` that resolves to rows { section, metric, value, target, ok }.
// Each section runs in a fresh Node process, so memory, JIT state and lingering sockets of
// one section do not colour the next one's figures (peak RSS especially).
// Add a section by adding its module to the list below.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const sections = (
  process.env.BENCH_ONLY ??
  './startup.js,./binary.js,./validate.js,./channel.js,./record-sync.js,./memory.js,./bot.js,./under-load.js,./conversations.js,./load.js,./load-generator.js,./proxy.js,./fuzz.js,./mutate.js,./drift.js,./trace.js'
).split(',');

/** Runs one section in a child process; its rows come back as the last stdout line. */
function runSection(section) {
  const url = new URL(section, import.meta.url).href;
  const script = `const { run } = await import(${JSON.stringify(url)}); const rows = await run(); process.stdout.write('\\n' + JSON.stringify(rows) + '\\n'); process.exit(0);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('['))
        reject(new Error(`bench section ${section} exited ${code}`));
      else resolve(JSON.parse(last));
    });
  });
}

const rows = [];
for (const section of sections) rows.push(...(await runSection(section)));

const columns = ['section', 'metric', 'value', 'target', 'ok'];
const cell = (row, column) =>
  column === 'ok' ? (row.ok === undefined ? '' : row.ok ? 'yes' : 'NO') : String(row[column] ?? '');
const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
const line = (values) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
console.log(line(columns));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(columns.map((c) => cell(row, c))));
