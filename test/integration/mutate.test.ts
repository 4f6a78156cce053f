/**
 * `svc-cli mutate` in process: selection, scoring, the JSON and text lines, --min-score,
 * --coverage, --junit, --report, timeouts and Ctrl-C. The user's test command is cheap: the
 * built CLI replaying a bundled conversation (the simulator under SVC_MUTANT), or a node
 * one-liner whose exit code follows SVC_MUTANT. That a real project's suite (vitest with msw,
 * pytest, a script starting `svc-cli platform`) kills and spares mutants is
 * test/e2e/mutate.test.ts's, and at full size test/e2e/mutate-examples.test.ts's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectFullScoreReports } from '../helpers/mutate.js';
import { createTestContext, runInProcess, type TestContext } from '../helpers/cli-context.js';
import { bin, repoRoot } from '../helpers/run-cli.js';

const node = process.execPath;
const fixture = join(repoRoot, 'fixtures/conversations/redelivery-recovered.json');
/** a suite that fails under the mutants named after it, and passes under any other */
const failsUnder = (...names: string[]): string[] => [
  node,
  '-e',
  'process.exit(process.argv.slice(1).includes(process.env.SVC_MUTANT) ? 1 : 0)',
  ...names,
];

interface Run {
  code: number;
  test: TestContext;
}

async function mutate(argv: string[], cwd = repoRoot): Promise<Run> {
  const test = createTestContext({ cwd });
  const code = await runInProcess(test, ['mutate', ...argv]);
  return { code, test };
}

const jsonLines = (test: TestContext): Array<Record<string, unknown>> =>
  test
    .stdout()
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let dir: string;
let recording: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-mutate-'));
  // what the suite below exercised: the replay of one redelivery series, recorded
  recording = join(dir, 'run.ndjson');
  const test = createTestContext({ cwd: repoRoot });
  expect(await runInProcess(test, ['replay', '--record', recording, fixture])).toBe(0);
});

describe('svc-cli mutate --list', () => {
  it('prints the catalogue with each spec section and survivor meaning; --only and --skip select', async () => {
    const text = await mutate(['--list']);
    expect(text.code).toBe(0);
    expect(text.test.stdout()).toContain('redeliver-early  redelivery, spec 8');
    expect(text.test.stdout()).toMatch(
      /survivor: your tests do not count deliveries: to kill it, count the POSTs your endpoint receives for one agent message/,
    );
    expect(text.test.stdout()).toMatch(/^\d+ of \d+ mutants$/m);
    const hooks = await mutate(['--json', '--list', '--only', 'hooks']);
    const names = jsonLines(hooks.test).map((l) => l.name);
    expect(names).toContain('no-chat-finished');
    expect(names.length).toBeGreaterThan(3);
    // a section, less a name and a family
    const section = await mutate([
      '--json',
      '--list',
      '--only',
      'spec 8',
      '--skip',
      'redeliver-early,limits',
    ]);
    expect(jsonLines(section.test).map((l) => l.name)).toEqual([
      'skip-third-attempt',
      'extra-attempt',
      'no-redelivery',
      'redeliver-new-id',
      'bot-redeliver-early',
    ]);
    const unknown = await mutate(['--list', '--only', 'skip-3rd-attempt']);
    expect(unknown.code).toBe(2);
    expect(unknown.test.stderr()).toContain('SVC_E_UNKNOWN_MUTANT');
  });
});

describe('svc-cli mutate: scoring', () => {
  it('kills and spares by name, three at once; below --min-score exits 1', async () => {
    const run = await mutate([
      '--json',
      '--only',
      'customer-500-once,status-inverted,unknown-channel-200',
      '--jobs',
      '3',
      '--min-score',
      '80',
      '--',
      ...failsUnder('customer-500-once', 'status-inverted'),
    ]);
    expect(run.test.stderr()).toContain('mutation score 66.6% is below --min-score 80%');
    expect(run.code).toBe(1);
    const lines = jsonLines(run.test);
    // each line as its run ends: three at once end in any order
    const results = lines.filter((l) => l.type === 'mutant-result');
    expect(Object.fromEntries(results.map((l) => [l.name, [l.outcome, l.exitCode]]))).toEqual({
      'customer-500-once': ['killed', 1],
      'status-inverted': ['killed', 1],
      'unknown-channel-200': ['survived', 0],
    });
    expect(lines.find((l) => l.type === 'summary')).toMatchObject({
      score: 66.6,
      killed: 2,
      survived: 1,
      timedOut: 0,
      notExercised: 0,
      total: 3,
      survivors: ['unknown-channel-200'],
      minScore: 80,
      pass: false,
    });
  });

  it("a kill keeps the run's last output: --json, JUnit, a text line; a port in use warns", async () => {
    // one mutant fails an assertion, the other crashes on a port the other run holds
    const says = [
      node,
      '-e',
      `const m = process.env.SVC_MUTANT;
       for (let i = 1; i <= 12; i++) console.log("line " + i);
       if (m === "customer-500-once") { console.error("AssertionError: expected 2 POSTs, got 1"); process.exit(1) }
       if (m === "status-inverted") { console.error("Error: listen EADDRINUSE: address already in use 127.0.0.1:48123"); process.exit(1) }`,
    ];
    const only = ['--only', 'customer-500-once,status-inverted', '--jobs', '2'];
    const json = await mutate(['--json', ...only, '--junit', join(dir, 'said.xml'), '--', ...says]);
    expect(json.code, json.test.stderr()).toBe(0);
    const results = jsonLines(json.test).filter((l) => l.type === 'mutant-result');
    const output = Object.fromEntries(results.map((l) => [l.name, l.output]));
    expect(output['customer-500-once']).toBe(
      [4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => `line ${i}`).join('\n') +
        '\nAssertionError: expected 2 POSTs, got 1',
    );
    expect(String(output['status-inverted'])).toMatch(/EADDRINUSE/);
    const xml = readFileSync(join(dir, 'said.xml'), 'utf8');
    expect(xml).toMatch(
      /<testcase name="customer-500-once \(spec 4\.1\)"[^>]*>\n {6}<system-out>line 4\n[^<]*AssertionError: expected 2 POSTs, got 1<\/system-out>/,
    );
    expect(json.test.stderr()).toContain(
      'killed mutant (status-inverted) failed on a port in use (EADDRINUSE): with --jobs 2',
    );
    expect(json.test.stderr()).not.toContain('customer-500-once) failed on a port');
    const text = await mutate([...only, '--', ...says]);
    expect(text.test.stdout()).toMatch(
      /^killed {4}customer-500-once \(spec 4\.1\) {2}\d+\.\d s\n {10}AssertionError: expected 2 POSTs, got 1$/m,
    );
    expect(text.test.stderr()).toContain('Rerun with --jobs 1, or let your suite bind port 0.');
    // one run at a time shares no port: no warning
    const alone = await mutate(['--only', 'status-inverted', '--', ...says]);
    expect(alone.test.stderr()).not.toContain('EADDRINUSE');
  });

  it('under a kill, the line that says why, not the closing summary the run ends on', async () => {
    // vitest ends on its summary and timing lines, the failed assertion far above them
    const says = [
      node,
      '-e',
      `console.error("Error: a log line of the app");
       console.log(" × bridge > delivers an agent message once");
       console.log("   → expected 2 to be 1");
       console.error(" FAIL  weak.test.mjs > bridge > delivers an agent message once");
       console.error("AssertionError: expected 2 to be 1 // Object.is equality");
       for (let i = 1; i <= 12; i++) console.log("   at frame " + i);
       console.log(" Test Files  1 failed (1)");
       console.log("   Duration  6.36s (transform 2.32s, setup 0ms)");
       process.exit(process.env.SVC_MUTANT ? 1 : 0);`,
    ];
    const only = ['--only', 'customer-500-once'];
    const text = await mutate([...only, '--', ...says]);
    expect(text.test.stdout()).toMatch(
      /^killed {4}customer-500-once \(spec 4\.1\) {2}\d+\.\d s\n {10}AssertionError: expected 2 to be 1 \/\/ Object\.is equality$/m,
    );
    const json = await mutate(['--json', ...only, '--', ...says]);
    const result = jsonLines(json.test).find((l) => l.type === 'mutant-result');
    expect(result).toMatchObject({
      failure: 'AssertionError: expected 2 to be 1 // Object.is equality',
    });
    expect(String(result?.output)).toMatch(/Duration {2}6\.36s/);
  });

  it('a replayed conversation kills what it pins; --coverage leaves the unexercised unrun', async () => {
    const run = await mutate([
      '--only',
      'skip-third-attempt,extra-attempt,drop-agent-typing',
      '--coverage',
      recording,
      '--min-score',
      '90',
      '--',
      node,
      bin,
      'replay',
      fixture,
    ]);
    const out = run.test.stdout();
    expect(run.code, run.test.stderr()).toBe(0);
    expect(out).toMatch(/^clean run passed in \d+\.\d s/);
    expect(out).toMatch(/^killed {4}skip-third-attempt \(spec 8\) {2}\d+\.\d s$/m);
    // the series recovers on attempt 3 and no agent types: neither can be seen by this run
    expect(out).toContain('unrun     extra-attempt (spec 8): never exercised by the recorded run');
    expect(out).toContain('drop-agent-typing (spec 2.3): never exercised');
    // what would reach each, from the coverage items it needs
    expect(out).toContain(
      'extra-attempt (spec 8): never exercised by the recorded run\n          reached by a run with: channel delivery failed after 3 attempts\n',
    );
    expect(out).toContain('reached by a run with: channel.agent.typing (platform -> integrator)\n');
    expect(out).toContain(
      'mutation score 100.0% (1 killed, 0 timed out, 0 survived of 1; 2 never exercised, not run)',
    );
  });

  it('a survivor is printed with what it means; no mutant exercised scores 0', async () => {
    const run = await mutate([
      '--only',
      'duplicate-agent-message',
      '--min-score',
      '1',
      '--',
      ...failsUnder(),
    ]);
    expect(run.code).toBe(1);
    expect(run.test.stderr()).toContain('mutation score 0.0% is below --min-score 1%');
    expect(run.test.stdout()).toMatch(/^survived {2}duplicate-agent-message \(spec [\d.]+\)/m);
    expect(run.test.stdout()).toContain(
      'your tests do not count deliveries: to kill it, count the POSTs',
    );
    expect(run.test.stdout()).toContain('mutation score 0.0% (0 killed, 0 timed out, 1 survived');
    expect(run.test.stderr()).toContain('no mutant changed the result of your command');
    const none = await mutate([
      '--json',
      '--only',
      'no-chat-finished',
      '--coverage',
      recording,
      '--',
      ...failsUnder(),
    ]);
    expect(none.code).toBe(0);
    expect(jsonLines(none.test).find((l) => l.type === 'summary')).toMatchObject({
      score: 0,
      notExercised: 1,
      total: 1,
    });
  });

  it('a run that does not end by --timeout is stopped and counts as killed', async () => {
    const hangs = [node, '-e', 'if (process.env.SVC_MUTANT) setInterval(() => {}, 1000)'];
    const run = await mutate([
      '--only',
      'customer-500-once',
      '--timeout',
      '2s',
      '--min-score',
      '100',
      '--',
      ...hangs,
    ]);
    expect(run.code, run.test.stderr()).toBe(0);
    expect(run.test.stdout()).toMatch(/^timeout {3}customer-500-once \(spec [\d.]+\)/m);
    expect(run.test.stdout()).toContain('mutation score 100.0% (0 killed, 1 timed out');
  });

  it('refuses a --timeout the clean run does not keep: every mutant would count as killed', async () => {
    const slow = [node, '-e', 'setTimeout(() => {}, 1500)'];
    const run = await mutate(['--only', 'customer-500-once', '--timeout', '1s', '--', ...slow]);
    expect(run.code).toBe(2);
    expect(run.test.stderr()).toContain('longer than --timeout 1.0 s');
    expect(run.test.stdout()).not.toContain('customer-500-once');
  });
});

describe('svc-cli mutate: JUnit and HTML', () => {
  it('JUnit and the HTML report: a case per mutant, the unexercised skipped, the score a gate', async () => {
    const run = await mutate(
      [
        '--only',
        'skip-third-attempt,no-redelivery,no-chat-finished',
        '--jobs',
        '2',
        '--coverage',
        recording,
        '--min-score',
        '100',
        '--junit',
        'mutants.xml',
        '--report',
        'mutants.html',
        '--',
        node,
        bin,
        'replay',
        fixture,
      ],
      dir,
    );
    expect(run.code, run.test.stderr()).toBe(0);
    expect(run.test.stderr()).toContain('JUnit written to mutants.xml: 3 mutants');
    expect(run.test.stderr()).toMatch(
      /HTML report written to mutants\.html: 3 mutants, 1 conversation of the recorded run/,
    );
    const xml = readFileSync(join(dir, 'mutants.xml'), 'utf8');
    expect(xml).toContain('tests="4" failures="0"');
    expectFullScoreReports(dir, { name: 'skip-third-attempt', spec: '8', family: 'redelivery' }, 3);
    // the recorded conversations under a heading of their own after the mutant cards, each
    // titled by what it did: a suite's recording names no test, and every run is a chat 1
    const html = readFileSync(join(dir, 'mutants.html'), 'utf8');
    // a page with the recorded run's conversations filters both
    expect(html).toContain('> only surviving mutants and conversations with violations</label>');
    const heading = html.indexOf('<h3 class="part">Conversations recorded in <code>');
    expect(heading).toBeGreaterThan(html.lastIndexOf('<section class="conv mutant'));
    expect(html.slice(heading)).toMatch(
      /<h2>customer\.text, agent\.text ×3 “Checking now\.” · chat 1 <span/,
    );
  });

  it('the notes on stderr come after every result line and the summary they refer to', async () => {
    const test = createTestContext({ cwd: repoRoot });
    // stdout and stderr as a terminal shows them: one stream, in the order written
    const both: string[] = [];
    test.ctx.stdout.on('data', (d: Buffer | string) => both.push(String(d)));
    test.ctx.stderr.on('data', (d: Buffer | string) => both.push(String(d)));
    const code = await runInProcess(test, [
      'mutate',
      '--only',
      'customer-500-once,unknown-channel-200',
      '--min-score',
      '80',
      '--junit',
      join(dir, 'order.xml'),
      '--',
      ...failsUnder('customer-500-once'),
    ]);
    expect(code).toBe(1);
    const text = both.join('');
    const at = (needle: string): number => {
      const index = text.indexOf(needle);
      expect(index, `${needle} in:\n${text}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const summary = at('mutation score 50.0% (1 killed');
    expect(at('survived  unknown-channel-200')).toBeLessThan(summary);
    expect(at('killed    customer-500-once')).toBeLessThan(summary);
    expect(at('JUnit written to')).toBeGreaterThan(summary);
    expect(at('mutation score 50.0% is below --min-score 80%')).toBeGreaterThan(
      at('JUnit written to'),
    );
  });

  it('--junit fails each survivor with what it means, and the score below --min-score', async () => {
    const run = await mutate([
      '--only',
      'customer-500-once,unknown-channel-200',
      '--min-score',
      '80',
      '--junit',
      join(dir, 'survivors.xml'),
      '--',
      ...failsUnder('customer-500-once'),
    ]);
    expect(run.code).toBe(1);
    const xml = readFileSync(join(dir, 'survivors.xml'), 'utf8');
    expect(xml).toContain('tests="3" failures="2"');
    expect(xml).toContain(
      '<failure message="no test sends to a wrong channel URL: to kill it, send to an unknown channel id and assert the 404" type="MutantSurvived">',
    );
    expect(xml).toContain('type="MutationScoreBelowMinimum"');
  });
});

describe('svc-cli mutate: refusals', () => {
  it('a report that cannot be written stops before any run (exit 2)', async () => {
    const run = await mutate([
      '--report',
      join(dir, 'no-such-folder/r.html'),
      '--',
      node,
      '-e',
      '0',
    ]);
    expect(run.code).toBe(2);
    expect(run.test.stderr()).toContain('Could not use --report');
    expect(run.test.stdout()).not.toContain('clean run');
  });

  it('refuses an empty --coverage recording before the clean run, as coverage does (exit 2)', async () => {
    // a suite that did not record (its record variable unset) leaves the file empty: every
    // mutant would be "never exercised" and the run would pass on a score of nothing
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '');
    const run = await mutate(['--coverage', empty, '--', node, '-e', '0']);
    expect(run.code).toBe(2);
    expect(run.test.stderr()).toContain('SVC_E_RECORDING');
    expect(run.test.stderr()).toContain(`Could not read ${empty}: it holds no exchanges`);
    expect(run.test.stdout()).not.toContain('clean run');
  });

  it('names a conversation fixture given to --coverage, and how to record one (exit 2)', async () => {
    const run = await mutate(['--coverage', fixture, '--', node, '-e', '0']);
    expect(run.code).toBe(2);
    expect(run.test.stderr()).toContain(
      'this is a conversation fixture, not a recording: replay it with --record <file> and give that to --coverage',
    );
    expect(run.test.stdout()).not.toContain('clean run');
  });

  it('--coverage - reads the recording from standard input, as coverage does', async () => {
    const test = createTestContext({ cwd: dir });
    test.stdin.end(readFileSync(recording));
    const code = await runInProcess(test, [
      'mutate',
      '--json',
      '--only',
      'no-redelivery,no-chat-finished',
      '--coverage',
      '-',
      '--',
      ...failsUnder('no-redelivery'),
    ]);
    expect(code, test.stderr()).toBe(0);
    // the replayed redelivery series reaches no-redelivery; no chat was finished
    expect(jsonLines(test).find((l) => l.type === 'summary')).toMatchObject({
      killed: 1,
      notExercised: 1,
    });
  });

  it('refuses to run mutants when the clean run fails, or there is no command (exit 2)', async () => {
    const failing = await mutate(['--', node, '-e', 'process.exit(3)']);
    expect(failing.code).toBe(2);
    expect(failing.test.stderr()).toContain('SVC_E_MUTATE_CLEAN_RUN');
    expect(failing.test.stderr()).toContain('exited 3 against the clean simulator');
    // what the suite said is why it failed
    const saying = await mutate([
      '--',
      node,
      '-e',
      'console.log("hello-out"); console.error("err-out"); process.exit(3)',
    ]);
    expect(saying.test.stderr()).toContain('Its last output:\n  | hello-out\n  | err-out');
    const missing = await mutate(['--', join(dir, 'no-such-command')]);
    expect(missing.code).toBe(2);
    expect(missing.test.stderr()).toContain('SVC_E_MUTATE_CLEAN_RUN');
    const none = await mutate([]);
    expect(none.code).toBe(2);
    expect(none.test.stderr()).toContain('no test command given');
  });

  it('Ctrl-C stops the running mutant with what it started, and no other starts', async () => {
    const test = createTestContext({ cwd: repoRoot });
    const run = runInProcess(test, [
      '--json',
      'mutate',
      '--only',
      'customer-500-once,status-inverted',
      '--junit',
      join(dir, 'interrupted.xml'),
      '--',
      node,
      '-e',
      // the mutant's run says it started, then hangs
      'if (process.env.SVC_MUTANT) { require("node:fs").writeFileSync(process.argv[1], "") ; setInterval(() => {}, 1000) }',
      join(dir, 'started'),
    ]);
    await vi.waitFor(() => readFileSync(join(dir, 'started')), { timeout: 30_000, interval: 20 });
    test.abort();
    expect(await run).toBe(130);
    expect(test.stderr()).toContain('interrupted: 0 of 2 mutants finished, 2 did not run');
    expect(jsonLines(test).filter((l) => l.type === 'mutant-result')).toEqual([]);
    // a --json reader gets its last line too, saying the run is not whole
    expect(jsonLines(test).at(-1)).toMatchObject({
      type: 'summary',
      interrupted: true,
      total: 0,
      unfinished: ['customer-500-once', 'status-inverted'],
    });
    // the report a CI job publishes is written with what finished
    expect(readFileSync(join(dir, 'interrupted.xml'), 'utf8')).toContain('<testsuites');
  });

  it('Ctrl-C: JUnit and HTML mark the run cut short and list the mutants that did not run', async () => {
    const test = createTestContext({ cwd: repoRoot });
    const junit = join(dir, 'cut.xml');
    const html = join(dir, 'cut.html');
    const run = runInProcess(test, [
      'mutate',
      '--only',
      'redeliver-early,skip-third-attempt,extra-attempt',
      '--min-score',
      '50',
      '--junit',
      junit,
      '--report',
      html,
      '--',
      node,
      '-e',
      // the first mutant is killed; the second says it started, then hangs
      `const fs = require("node:fs"); const [, first, started] = process.argv;
       if (process.env.SVC_MUTANT) {
         if (!fs.existsSync(first)) { fs.writeFileSync(first, ""); process.exit(1) }
         fs.writeFileSync(started, ""); setInterval(() => {}, 1000);
       }`,
      join(dir, 'cut-first'),
      join(dir, 'cut-started'),
    ]);
    await vi.waitFor(() => readFileSync(join(dir, 'cut-started')), {
      timeout: 30_000,
      interval: 20,
    });
    test.abort();
    expect(await run).toBe(130);
    expect(test.stderr()).toContain('interrupted: 1 of 3 mutants finished, 2 did not run');
    expect(test.stderr()).toContain('JUnit written to');
    expect(test.stderr()).toMatch(/cut\.xml: 1 mutant, 2 interrupted/);
    const xml = readFileSync(junit, 'utf8');
    // every selected mutant is a case: the killed one passes, the others are errors
    expect(xml).toContain('tests="4" failures="0" errors="3"');
    expect(xml).toMatch(
      /<testcase name="redeliver-early \(spec 8\)" classname="svc-cli mutate.redelivery" time="[\d.]+"><\/testcase>/,
    );
    const cut =
      '<error message="interrupted before it finished: 1 of 3 mutants finished, 2 did not run" type="Interrupted"/>';
    for (const name of ['skip-third-attempt', 'extra-attempt'])
      expect(xml).toContain(
        `<testcase name="${name} (spec 8)" classname="svc-cli mutate.redelivery" time="0.000">\n      ${cut}`,
      );
    // a score of the mutants that finished is no verdict: the gate is cut short too
    expect(xml).toContain(
      `<testcase name="mutation score" classname="svc-cli mutate">\n      ${cut}`,
    );
    expect(xml).toContain('<property name="mutation.interrupted" value="2"/>');
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('interrupted: 1 of 3 mutants finished, 2 did not run');
    expect(page.match(/data-outcome="interrupted"/g)).toHaveLength(2);
    expect(page).toContain('<b class="bad">2</b> interrupted');
    expect(page).toContain('mutation score <b>100.0%</b> of the mutants that finished');
    // no --coverage: the page holds mutants alone, and its filter says only them
    expect(page).toContain('id="only-bad"> only surviving mutants</label>');
    expect(page).toContain('>No surviving mutants.</p>');
    expect(page).not.toContain('conversations with violations');
  });
});
