/**
 * The README's tours, run as written ("make it stay true"). Each test reads its
 * tour's command lines from README.md and the docs/ pages themselves, so an edit there is what runs here; the ports
 * of the README are mapped to free ones, `npx svc-cli` is the built CLI, `<...>` placeholders
 * get what the earlier commands printed, and SVC_TIME_SCALE (an environment variable every
 * command reads) scales the protocol timers so a 6 s redelivery series takes 3 s. Not less:
 * conform's timing tolerance is protocol time too. With the default 1 s, 0.2 (200 ms of wall)
 * read attempt 3 at 7.14 s instead of 6 in a full `npm run check`, and 0.05 (50 ms) 4.3 s.
 * A `--fuzz N` runs at most 20 cases but in `npm run test:slow` (`fuzzCases`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { bin, repoRoot } from '../helpers/run-cli.js';
import { sized } from '../helpers/size.js';

/** The README and the docs/ pages its tours continue in, searched as one text. */
const README = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'CONTRACT.md')
    .map((name) => join('docs', name)),
]
  .map((file) => readFileSync(join(repoRoot, file), 'utf8'))
  .join('\n');
const TIME_SCALE = '0.5';
/**
 * conform platform's redelivery check (SVC_TOLERANCE, read like SVC_TIME_SCALE): the tours are
 * about the README's lines running, not the schedule (conform.test.ts holds it to 1000 ms), and
 * beside a CPU hog the Platform QA tour read a late attempt at 0.5 with 1000 ms (500 wall ms).
 * 2900 ms is all the slack there is short of the 3 s between attempts: 1.45 s of wall.
 */
const TOLERANCE = '2900';

/**
 * A line's `--fuzz N` runs at most 20 cases in `npm test` (each case is an exchange and its
 * redelivery: enough to show the line works and passes), and as written in `npm run test:slow`.
 */
const fuzzCases = (written: number): number => sized(Math.min(written, 20), written);

/** The command lines of the first sh block after `marker` (continuations joined, comments cut). */
function tourLines(marker: string): string[] {
  const at = README.indexOf(marker);
  if (at === -1) throw new Error(`README has no ${marker}`);
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(at))?.[1] ?? '';
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npx svc-cli'));
}

interface Running {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    if (r.child.exitCode === null) r.child.kill('SIGINT');
    await r.exited;
  }
});

/** A README line as argv: ports mapped, placeholders filled, `# comments`, `&` and `> log 2>&1` dropped. */
function argvOf(
  line: string,
  ports: Map<string, number>,
  values: Record<string, string>,
): string[] {
  let text = line
    .replace(/\s+#.*$/, '')
    .replace(/\s*&\s*$/, '')
    .replace(/\s+>\s*\S+\s+2>&1$/, '');
  for (const [placeholder, value] of Object.entries(values))
    text = text.split(placeholder).join(value);
  text = text.replace(/\b(\d{4})\b/g, (port) => String(ports.get(port) ?? port));
  const args: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) args.push(match[1] ?? match[2]!);
  const fuzz = args.indexOf('--fuzz') + 1;
  if (fuzz > 0) args[fuzz] = String(fuzzCases(Number(args[fuzz])));
  expect(args.slice(0, 2)).toEqual(['npx', 'svc-cli']);
  expect(text).not.toMatch(/<[^>]+>/); // every placeholder was filled
  return args.slice(2);
}

function start(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', SVC_TIME_SCALE: TIME_SCALE, SVC_TOLERANCE: TOLERANCE },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; done: (m: RegExpExecArray) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const m = w.pattern.exec(out + err);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done(m);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), check()));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((err += d), check()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const r: Running = {
    child,
    out: () => out,
    err: () => err,
    exited,
    waitFor: (pattern) =>
      new Promise((done, fail) => {
        waiters.push({ pattern, done });
        check();
        void exited.then((code) =>
          setTimeout(
            () => fail(new Error(`exited ${code} before ${pattern}:\n${out}\n${err}`)),
            50,
          ),
        );
      }),
  };
  running.push(r);
  return r;
}

async function run(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const r = start(args, cwd);
  const code = await r.exited;
  return { code, out: r.out() + r.err() };
}

async function portsFor(...readmePorts: string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  for (const port of readmePorts) map.set(port, await freePort());
  return map;
}

describe('README tours, as written', () => {
  it('Integrator: the platform redelivers to listen --fail-first 2 at 0, 3, 6 s; a healthy listen conforms', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('**Integrator**');
    expect(lines).toHaveLength(5);
    const ports = await portsFor('9000', '8800');
    const listen = start(argvOf(lines[0]!, ports, {}), cwd);
    await listen.waitFor(/listening/);
    const platform = start(argvOf(lines[1]!, ports, {}), cwd);
    await platform.waitFor(/channel URL\s+(\S+)/);
    const sent = await run(argvOf(lines[2]!, ports, {}), cwd);
    expect(sent.code, sent.out).toBe(0);
    await platform.waitFor(/customer Ann \(c-42\)/);
    platform.child.stdin!.write('Your order ships today\n');
    await platform.waitFor(/delivered after 3 attempt/);
    expect(platform.out()).toMatch(/attempt 3\/3 at \+6\.\d{3}s/);
    listen.child.kill('SIGINT');
    await listen.exited;
    // as the README runs it: conform right after `listen ... &`, its --wait covering the start
    start(argvOf(lines[3]!, ports, {}), cwd);
    expect(lines[4]).toContain('--wait 10s');
    const conform = await run(argvOf(lines[4]!, ports, {}), cwd);
    expect(conform.code, conform.out).toBe(0);
    expect(readFileSync(join(cwd, 'conform.xml'), 'utf8')).toMatch(/failures="0"/);
  });

  it('Bot provider: bot-sim answers "menu" through the platform; replay --grep bot- is green', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('**Bot provider**');
    expect(lines).toHaveLength(5);
    const ports = await portsFor('9000', '8800', '9100');
    const listen = start(argvOf(lines[0]!, ports, {}), cwd);
    await listen.waitFor(/listening/);
    const bot = start(argvOf(lines[1]!, ports, {}), cwd);
    await bot.waitFor(/listening/);
    const platform = start(argvOf(lines[2]!, ports, {}), cwd);
    const channelUrl = (await platform.waitFor(/channel URL\s+(\S+)/))[1]!;
    expect(channelUrl).toContain('/dev-only-secret-1234/shop');
    const sent = await run(argvOf(lines[3]!, ports, {}), cwd);
    expect(sent.code, sent.out).toBe(0);
    // the bot's answer reaches the customer's side (listen) through the platform
    await platform.waitFor(/delivered/);
    const replay = await run(argvOf(lines[4]!, ports, {}), cwd);
    expect(replay.code, replay.out).toBe(0);
    expect(replay.out).toMatch(/\d+ passed, 0 failed/);
  });

  it('Hook receiver: hook-fire --all, platform --hook-url, conform hooks against a receiver', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('**Hook receiver**');
    expect(lines).toHaveLength(6);
    const ports = await portsFor('9200', '9000', '8800');
    // the tour starts its own stand-in receiver on :9200 and the customer's side on :9000
    const receiver = start(argvOf(lines[0]!, ports, {}), cwd);
    await receiver.waitFor(/listening/);
    const listen = start(argvOf(lines[1]!, ports, {}), cwd);
    await listen.waitFor(/listening/);
    const platform = start(argvOf(lines[2]!, ports, {}), cwd);
    await platform.waitFor(/hooks\s+->\s+http/);
    await platform.waitFor(/channel URL\s+(\S+)/);
    const fired = await run(argvOf(lines[3]!, ports, {}), cwd);
    expect(fired.code, fired.out).toBe(0);
    const sent = await run(argvOf(lines[4]!, ports, {}), cwd);
    expect(sent.code, sent.out).toBe(0);
    await platform.waitFor(/customer c-1/);
    // an agent reply is delivered to listen: no "no integrator URL is configured"
    platform.child.stdin!.write('Hello from the agent\n');
    await platform.waitFor(/chat_accepted/);
    expect(platform.out() + platform.err()).not.toContain('no integrator URL');
    const conform = await run(argvOf(lines[5]!, ports, {}), cwd);
    expect(conform.code, conform.out).toBe(0);
  });

  it('Staging: proxy channel between listen and the simulator; the session replays green', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('Tried on one machine, with the simulator standing in for staging');
    expect(lines).toHaveLength(6);
    const ports = await portsFor('9000', '8800', '8443');
    const listen = start(argvOf(lines[0]!, ports, {}), cwd);
    await listen.waitFor(/listening/);
    const platform = start(argvOf(lines[1]!, ports, {}), cwd);
    const channelUrl = (await platform.waitFor(/channel URL\s+(\S+)/))[1]!;
    const proxy = start(
      argvOf(lines[2]!, ports, { '<channel URL from the banner>': channelUrl }),
      cwd,
    );
    await proxy.waitFor(/listening/);
    const sent = await run(argvOf(lines[3]!, ports, {}), cwd);
    expect(sent.code, sent.out).toBe(0);
    await platform.waitFor(/customer c-1/);
    platform.child.stdin!.write('It ships today\n');
    await proxy.waitFor(/delivered on attempt 2/);
    // on a scaled clock a few wall ms of connection set-up read as tenths of protocol seconds
    expect(proxy.out()).toMatch(/attempt 2\/3 of \S+ at \+[23]\.\d s, expected \+3\.0 s/);
    proxy.child.kill('SIGINT');
    await proxy.waitFor(/proxy summary: 3 exchanges/);
    await proxy.exited;
    mkdirSync(join(cwd, 'my-flows')); // the tour's mkdir -p my-flows: --out makes no folder
    const converted = await run(argvOf(lines[4]!, ports, {}), cwd);
    expect(converted.code, converted.out).toBe(0);
    expect(existsSync(join(cwd, 'my-flows/from-staging.json'))).toBe(true);
    const replay = await run(argvOf(lines[5]!, ports, {}), cwd);
    expect(replay.code, replay.out).toBe(0);
    expect(replay.out).toMatch(/1 passed, 0 failed/);
  });

  it('Platform QA: conform platform, status and replay --platform-url against a running simulator', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('**Platform QA**');
    expect(lines).toHaveLength(5);
    const ports = await portsFor('9000', '8800');
    // the tour starts its own integrator and stand-in platform on :9000 and :8800
    const listen = start(argvOf(lines[0]!, ports, {}), cwd);
    await listen.waitFor(/listening/);
    // no wait for the platform: conform's --wait 10s, as written, covers its start
    start(argvOf(lines[1]!, ports, {}), cwd);
    const conform = await run(argvOf(lines[2]!, ports, {}), cwd);
    expect(conform.code, conform.out).toBe(0);
    const status = await run(argvOf(lines[3]!, ports, {}), cwd);
    expect(status.code, status.out).toBe(0);
    const replay = await run(argvOf(lines[4]!, ports, {}), cwd);
    expect(replay.code, replay.out).toBe(0);
    // what the README says the run ends with
    const ends = /The replay ends `([^`]+)`/.exec(README)?.[1];
    expect(replay.out).toContain(ends);
  });

  it('Fuzz your endpoint: hook-target and listen pass the generated cases', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('## Fuzz your endpoint');
    expect(lines).toHaveLength(4);
    const ports = await portsFor('9200', '9000');
    // each conform line's --wait 10s covers the start of the stand-in before it
    start(argvOf(lines[0]!, ports, {}), cwd);
    const hooks = await run(argvOf(lines[1]!, ports, {}), cwd);
    expect(hooks.code, hooks.out).toBe(0);
    expect(hooks.out).toContain(`fuzz: ${fuzzCases(500)} generated cases, seed 7`);
    start(argvOf(lines[2]!, ports, {}), cwd);
    // the README's line with protocol time 5x slower: its 3 s answer budget (spec 8) is real
    // time, and a full parallel run on 2 cores held listen past it twice in six runs
    const integrator = await run(['--time-scale', '5', ...argvOf(lines[3]!, ports, {})], cwd);
    // the seed is random (the README's line has none): a failure shows its report
    expect(integrator.code, integrator.out).toBe(0);
  }, 120_000); // 800 cases in test:slow: a loaded 2-core machine took 20 s

  it('Your own peer: record through proxy hooks, convert, replay against the receiver, conform, fuzz a bot', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('**Your own peer**');
    expect(lines).toHaveLength(10);
    const ports = await portsFor('9200', '9000', '8443', '8800', '9100', '8801');
    const receiver = start(argvOf(lines[0]!, ports, {}), cwd);
    await receiver.waitFor(/listening/);
    const listen = start(argvOf(lines[1]!, ports, {}), cwd);
    await listen.waitFor(/listening/);
    const proxy = start(argvOf(lines[2]!, ports, {}), cwd);
    await proxy.waitFor(/listening/);
    const platform = start(argvOf(lines[3]!, ports, {}), cwd);
    await platform.waitFor(/channel URL\s+(\S+)/);
    const sent = await run(argvOf(lines[4]!, ports, {}), cwd);
    expect(sent.code, sent.out).toBe(0);
    await platform.waitFor(/customer c-1/);
    platform.child.stdin!.write('Let me check\n');
    await platform.waitFor(/chat_accepted/);
    platform.child.kill('SIGINT');
    await platform.exited;
    mkdirSync(join(cwd, 'my-flows')); // the tour's mkdir -p my-flows: --out makes no folder
    const converted = await run(argvOf(lines[5]!, ports, {}), cwd);
    expect(converted.code, converted.out).toBe(0);
    const replay = await run(argvOf(lines[6]!, ports, {}), cwd);
    expect(replay.code, replay.out).toBe(0);
    expect(replay.out).toMatch(/expectations: [1-9]\d* checked, 0 skipped/);
    expect(replay.out).toMatch(/run id \d+: fresh chat ids/);
    for (const round of [1, 2]) {
      const conform = await run(argvOf(lines[7]!, ports, {}), cwd);
      expect(conform.code, `round ${round}: ${conform.out}`).toBe(0);
    }
    start(argvOf(lines[8]!, ports, {}), cwd); // conform bot's --wait 10s covers its start
    const fuzzed = await run(argvOf(lines[9]!, ports, {}), cwd);
    expect(fuzzed.code, fuzzed.out).toBe(0);
    expect(fuzzed.out).toContain(`fuzz: ${fuzzCases(20)} generated cases`);
  }, 120_000);

  it('Bring your own peer page: replay against a receiver and a bot (fresh ids), fuzz the bot', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const hooks = tourLines('## Replay against your endpoint');
    const bots = tourLines('A bot posts its answers to the platform URL');
    const fuzz = tourLines('## Fuzz, and replay what broke');
    expect([hooks.length, bots.length, fuzz.length]).toEqual([2, 2, 1]);
    const ports = await portsFor('9200', '9100', '8801');
    // no wait for the stand-ins: each replay line's --wait 10s covers their start
    start(argvOf(hooks[0]!, ports, {}), cwd);
    // the page's replays pick the shipped fixtures (--grep), so they run from a folder of one's own
    const hookReplay = await run(argvOf(hooks[1]!, ports, {}), cwd);
    expect(hookReplay.code, hookReplay.out).toBe(0);
    expect(hookReplay.out).toContain('expectations: 5 checked, 0 skipped (not observable)');
    expect(hookReplay.out).toMatch(/run id \d+: fresh chat ids from \d+001/);
    start(argvOf(bots[0]!, ports, {}), cwd);
    const botReplay = await run(argvOf(bots[1]!, ports, {}), cwd);
    expect(botReplay.code, botReplay.out).toBe(0);
    expect(botReplay.out).toMatch(/1 passed, 0 failed/);
    // the bot's platform port is free again: conform's embedded platform takes it
    const fuzzed = await run(argvOf(fuzz[0]!, ports, {}), cwd);
    expect(fuzzed.code, fuzzed.out).toBe(0);
    expect(fuzzed.out).toContain(`fuzz: ${fuzzCases(100)} generated cases`);
  }, 120_000);

  it('Web developer: widget serves the demo page wired to a simulator with its agent console', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-tour-'));
    const lines = tourLines('**Web developer**');
    expect(lines).toHaveLength(1);
    const widget = start(argvOf(lines[0]!, new Map(), {}), cwd);
    const page = (await widget.waitFor(/demo page\s+(http:\/\/\S+)/))[1]!;
    const consoleUrl = (await widget.waitFor(/agent console\s+(http:\/\/\S+)/))[1]!;
    const html = await (await fetch(page)).text();
    expect(html).toContain('svc-widget.js');
    expect((await fetch(consoleUrl)).status).toBe(200);
  });
});
