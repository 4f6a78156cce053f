// npm run bench: runs each section and prints one table. A section is a module exporting
// `async function run()` that resolves to rows { section, metric, value, target, ok }.
// Add a section by adding its module to the list below.
const sections = (
  process.env.BENCH_ONLY ??
  './startup.js,./validate.js,./channel.js,./bot.js,./conversations.js,./load.js'
).split(',');

const rows = [];
for (const section of sections) {
  const { run } = await import(section);
  rows.push(...(await run()));
}

const columns = ['section', 'metric', 'value', 'target', 'ok'];
const cell = (row, column) =>
  column === 'ok' ? (row.ok === undefined ? '' : row.ok ? 'yes' : 'NO') : String(row[column] ?? '');
const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
const line = (values) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
console.log(line(columns));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(columns.map((c) => cell(row, c))));
