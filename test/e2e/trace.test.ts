import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { LATE_HOOK } from '../helpers/late-hook.js';
import { toHar } from '../../src/journal/har.js';
import type { ExchangeRecord } from '../../src/journal/record.js';

let dir: string;
let recording: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-trace-e2e-'));
  recording = join(dir, 'session.ndjson');
  const replay = await runCli([
    'replay',
    'fixtures/conversations/transcript-redelivered.json',
    'fixtures/conversations/bot-handover-online.json',
    '--record',
    recording,
  ]);
  expect(replay.code, replay.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Span = {
  type: string;
  seq: number;
  cause?: number;
  name: string;
  attempt?: number;
  chat: number;
  run: string;
  offsetMs: number;
};

describe('svc-cli trace', () => {
  it('prints the causal chain of a redelivered agent message through to chat_finished (--json)', async () => {
    const run = await runCli(['trace', recording, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Span);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', conversations: 2, spans: 12 });
    const spans = lines.filter((l) => l.type === 'span' && l.run === lines[0]!.run);
    const bySeq = new Map(spans.map((s) => [s.seq, s]));
    const chain: string[] = [];
    for (
      let s = spans.find((x) => x.name === 'chat_finished');
      s;
      s = s.cause === undefined ? undefined : bySeq.get(s.cause)
    )
      chain.push(
        `${s.name}${s.attempt && s.name !== 'chat_finished' ? `#${s.attempt}` : ''}@${s.offsetMs}`,
      );
    expect(chain).toEqual([
      'chat_finished@6000',
      'agent.text#3@6000',
      'agent.text#2@3000',
      'agent.text#1@0',
      'customer.text@0',
    ]);
  });

  it('prints a timeline with a lane per party, gaps and attempts', async () => {
    const run = await runCli(['trace', recording, '--chat', '1']);
    expect(run.code, run.stderr).toBe(0);
    const [first] = run.stdout.split('\n\n');
    expect(first).toMatch(/^chat 1 · run [0-9a-f]+ · 6 exchanges over 6\.000 s/);
    expect(first).toMatch(/integrator +platform +bot +hooks +widget/);
    expect(first).toMatch(
      /\+3\.000 s +\+3\.000 s .*#4 agent\.text attempt 2 "Checking now\." 500 rejected ← #3 \(recorded\)/,
    );
    expect(first).toMatch(/#6 chat_finished attempt 1 200 accepted ← #5/);
    expect(run.stderr).toContain('2 conversations, 12 exchanges');
  });

  it('refuses --json beside another --format, rather than print NDJSON for it (exit 2)', async () => {
    const run = await runCli(['trace', recording, '--json', '--format', 'otlp-json']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({
      type: 'error',
      code: 'SVC_E_OPTIONS',
      message: "Could not use --json with --format otlp-json: both name the output's format.",
    });
    const text = await runCli(['trace', recording, '--format', 'text', '--json']);
    expect(text.code).toBe(2);
    const same = await runCli(['--json', 'trace', recording, '--format', 'json']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('"type":"summary"');
  });

  it('writes an OTLP/JSON document to a file', async () => {
    const out = join(dir, 'otlp.json');
    const run = await runCli(['trace', recording, '--format', 'otlp-json', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as {
      resourceSpans: { scopeSpans: { spans: { traceId: string; parentSpanId?: string }[] }[] }[];
    };
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans).toHaveLength(12);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(2);
  });

  it('fails with exit 2 on a missing recording, without a stack trace', async () => {
    const run = await runCli(['trace', join(dir, 'nope.ndjson')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no such file');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('trace and report fail with exit 2 on a file with no journal record (a README)', async () => {
    const readme = join(dir, 'README.md');
    writeFileSync(readme, '# a page\n\nnot a journal\n');
    const traced = await runCli(['trace', readme]);
    expect(traced.code).toBe(2);
    expect(traced.stderr).toContain('SVC_E_RECORDING');
    expect(traced.stderr).toContain('none of its 2 lines is a journal record');
    const reported = await runCli(['report', readme, '--out', join(dir, 'readme.html')]);
    expect(reported.code).toBe(2);
    expect(reported.stderr).toContain('SVC_E_RECORDING');
  });

  it('trace and report name a conversation fixture as one, and say to replay it (exit 2)', async () => {
    const fixture = 'fixtures/conversations/transcript-redelivered.json';
    const traced = await runCli(['trace', fixture]);
    expect(traced.code).toBe(2);
    expect(traced.stderr).toContain(
      `[SVC_E_RECORDING] Could not read ${fixture} as a journal: this is a conversation fixture, not a recording: replay it with --record <file> and trace that.`,
    );
    expect(traced.stderr).not.toContain('is a journal record');
    const json = await runCli(['trace', fixture, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      type: 'error',
      code: 'SVC_E_RECORDING',
      message: expect.stringContaining('this is a conversation fixture, not a recording'),
    });
    const reported = await runCli(['report', fixture, '--out', join(dir, 'fixture.html')]);
    expect(reported.code).toBe(2);
    expect(reported.stderr).toContain(
      'this is a conversation fixture, not a recording: replay it with --record <file> and report that.',
    );
    expect(existsSync(join(dir, 'fixture.html'))).toBe(false);
  });
});

describe("a bot's answer", () => {
  it('is labelled bot.text in the timeline and --json name; its kind stays the contract kind', async () => {
    const botRecording = join(dir, 'bot.ndjson');
    const replay = await runCli([
      'replay',
      'fixtures/conversations/bot-text.json',
      '--record',
      botRecording,
    ]);
    expect(replay.code, replay.stderr).toBe(0);
    const text = await runCli(['trace', botRecording]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/#4 bot\.text attempt 1 "You said: hello bot" 200 accepted ← #2$/m);
    expect(text.stdout).not.toContain('agent.text');
    const json = await runCli(['trace', botRecording, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const delivered = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Span & { kind?: string })
      .find((l) => l.seq === 4);
    expect(delivered).toMatchObject({ name: 'bot.text', kind: 'channel.agent.text' });
  });
});

describe('invariants on the command line', () => {
  const lateHook = LATE_HOOK;

  it('replay fails on a broken invariant, passes with --no-invariant, and trace prints it (exit 1)', async () => {
    const file = join(dir, 'late-hook.json');
    writeFileSync(file, JSON.stringify(lateHook));
    const rec = join(dir, 'late.ndjson');
    const failed = await runCli(['replay', file, '--record', rec]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(
      'hook-after-finish (spec 6.2): #6 chat_assigned at +0.000 s went to the hook receiver after #4 chat_finished at +0.000 s',
    );
    const off = await runCli(['replay', file, '--no-invariant', 'hook-after-finish']);
    expect(off.code, off.stdout).toBe(0);
    const traced = await runCli(['trace', rec]);
    expect(traced.code).toBe(1);
    expect(traced.stdout).toContain('✗ hook-after-finish (spec 6.2)');
    expect(traced.stderr).toContain('1 invariant violation');
    const quiet = await runCli(['trace', rec, '--no-invariant', 'hook-after-finish']);
    expect(quiet.code).toBe(0);
  });

  it('names a violation’s exchanges by their timeline offsets, in a chat opened late', async () => {
    // two minutes of protocol time before the chat: the journal counts from the run's start
    const file = join(dir, 'late-chat.json');
    const [customer, answer, close, assign] = lateHook.steps;
    const steps = [{ advance: 120_000 }, customer, answer, { advance: 2000 }, close];
    writeFileSync(
      file,
      JSON.stringify({ ...lateHook, steps: [...steps, { advance: 1000 }, assign] }),
    );
    const rec = join(dir, 'late-chat.ndjson');
    const html = join(dir, 'late-chat.html');
    const said =
      '#6 chat_assigned at +3.000 s went to the hook receiver after #4 chat_finished at +2.000 s';
    const replayed = await runCli(['replay', file, '--record', rec, '--report', html]);
    expect(replayed.code, replayed.stderr).toBe(1);
    expect(replayed.stdout).toContain(said);
    const traced = await runCli(['trace', rec]);
    expect(traced.code, traced.stderr).toBe(1);
    expect(traced.stdout).toMatch(/^ +\+2\.000 s +\+2\.000 s .* #4 chat_finished /m);
    expect(traced.stdout).toMatch(/^ +\+3\.000 s .* #6 chat_assigned /m);
    expect(traced.stdout).toContain(`✗ hook-after-finish (spec 6.2): ${said} [#4 and #6]`);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(`(spec 6.2): ${said} <a href=`);
    expect(page).toMatch(
      /<span class="t">\+3\.000 s<span class="gap">gap 1\.000 s<\/span><\/span>/,
    );
  });

  it('refuses an unknown invariant name with the known ones (exit 2)', async () => {
    const run = await runCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--no-invariant',
      'transcripts',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'Could not switch off invariant "transcripts": no invariant by that name (did you mean transcript?).',
    );
    expect(run.stderr).toContain('Known invariants: transcript, bot-after-close');
  });
});

describe('trace and report: folders, HAR journals, chats not there', () => {
  it('a folder is named as one, exit 2, no internal error', async () => {
    for (const command of [
      ['trace', dir],
      ['report', dir, '--out', join(dir, 'folder.html')],
    ]) {
      const run = await runCli(command);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `Could not read the recording ${dir}: it is a folder, not a file.`,
      );
      expect(run.stderr).not.toContain('SVC_E_INTERNAL');
    }
  });

  it('a HAR journal (--record x.har) traces as its NDJSON does: chats, runs and causes', async () => {
    const records = readFileSync(recording, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as ExchangeRecord);
    const har = join(dir, 'session.har');
    writeFileSync(har, JSON.stringify(toHar(records), null, 2));
    const fields = (stdout: string) =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Span)
        .filter((s) => s.type === 'span')
        .map(({ seq, cause, chat, run, name }) => ({ seq, cause, chat, run, name }));
    const fromNdjson = await runCli(['--json', 'trace', recording]);
    const fromHar = await runCli(['--json', 'trace', har]);
    expect(fromHar.code, fromHar.stderr).toBe(0);
    expect(fields(fromHar.stdout)).toEqual(fields(fromNdjson.stdout));
    expect(fields(fromHar.stdout).length).toBeGreaterThan(10);
    const report = await runCli(['report', har, '--out', join(dir, 'har-report.html')]);
    expect(report.code, report.stderr).toBe(0);
    expect(
      readFileSync(join(dir, 'har-report.html'), 'utf8').match(/<section class="conv/g),
    ).toHaveLength(2);
  });

  it('a HAR exported elsewhere places each entry by URL and body, and notes what it left out', async () => {
    const payload = (name: string) => readFileSync(`fixtures/payloads/${name}`, 'utf8');
    const entry = (second: number, method: string, url: string, body?: string) => ({
      startedDateTime: `2026-12-01T10:00:0${second}.000Z`,
      time: 40,
      request: {
        method,
        url,
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        ...(body === undefined ? {} : { postData: { mimeType: 'application/json', text: body } }),
      },
      response: { status: 200, headers: [], content: { text: '{"result":"ok"}' } },
    });
    // as DevTools or Charles write it: no _svc extras, no comment
    const agent = JSON.parse(payload('channel/agent-text.valid.json')) as {
      recipient: { id: string };
    };
    agent.recipient.id = 'c1';
    const har = join(dir, 'foreign.har');
    writeFileSync(
      har,
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 'Charles', version: '4.6' },
          entries: [
            entry(
              0,
              'POST',
              'https://chat.example/r4nd0m/ch1',
              payload('channel/customer-text-minimal.valid.json'),
            ),
            entry(
              1,
              'POST',
              'https://crm.example/hooks',
              payload('hooks/chat-accepted.valid.json'),
            ),
            entry(2, 'POST', 'https://shop.example/agent/ch1', JSON.stringify(agent)),
            entry(3, 'GET', 'https://shop.example/app.js'),
          ],
        },
      }),
    );
    const traced = await runCli(['--json', 'trace', har]);
    expect(traced.code, traced.stderr).toBe(0);
    const spans = traced.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Span & { interface: string; direction: string })
      .filter((s) => s.type === 'span')
      .map((s) => `${s.chat} ${s.interface} ${s.direction} ${s.name}`);
    expect(spans).toEqual([
      '1 channel in customer.text',
      '1 channel out agent.text',
      '9001 hook out chat_accepted',
    ]);
    const note =
      'left out 1 HAR entry svc-cli could place on no interface (GET https://shop.example/app.js)';
    expect(traced.stderr).toContain(note);
    const report = await runCli(['report', har, '--out', join(dir, 'foreign.html')]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toContain(note);
    expect(report.stderr).toContain('2 conversations, 3 exchanges');
    // coverage reads it through the same reader: it left the script out without a word
    const covered = await runCli(['coverage', har]);
    expect(covered.code, covered.stderr).toBe(0);
    expect(covered.stdout).toContain('contract coverage of 3 exchanges');
    expect(covered.stderr).toContain(note);
    // such a HAR names no run: the headings leave the run out rather than show an empty one
    const text = await runCli(['trace', har]);
    expect(text.stdout.split('\n')[0]).toMatch(/^chat 1 · 2 exchanges over \d/);
    const html = readFileSync(join(dir, 'foreign.html'), 'utf8');
    expect(html).toMatch(/<h2>chat 1 <span class="badge">2 exchanges · /);
    expect(html).not.toContain('>run <');
  });

  it('report --chat of a chat not in the recording is exit 2 and leaves no file, as trace --chat', async () => {
    const out = join(dir, 'chat-99.html');
    const reported = await runCli(['report', recording, '--chat', '99', '--out', out]);
    expect(reported.code).toBe(2);
    expect(reported.stderr).toContain('SVC_E_NO_CHAT');
    // which chats it holds, as trace says, for report
    expect(reported.stderr).toContain('It holds chat 1');
    expect(reported.stderr).toContain('; without --chat, report draws every one.');
    expect(existsSync(out)).toBe(false);
    const traced = await runCli(['trace', recording, '--chat', '99']);
    expect(traced.code).toBe(2);
    expect(traced.stderr).toContain('SVC_E_NO_CHAT');
    // and which chats it does hold, for the --chat to give instead
    expect(traced.stderr).toContain('It holds chat 1');
    expect(traced.stderr).toContain('; without --chat, trace draws every one.');
    // the error alone, no "0 conversations" summary before it
    expect(traced.stderr).not.toContain('0 conversations');
  });

  it('a recording that is not there says what to check: the path, its folder, what writes one', async () => {
    const hint = `Check the path (a relative path is read from ${dir}, the folder svc-cli runs in). --record writes a recording`;
    for (const args of [
      ['trace', 'nope.ndjson'],
      ['report', 'nope.ndjson'],
      ['coverage', 'nope.ndjson'],
      ['record', 'diff', 'nope.ndjson', 'session.ndjson'],
    ]) {
      const run = await runCli(args, { cwd: dir });
      expect(run.code, args.join(' ')).toBe(2);
      // named as typed, not as the absolute path it was resolved to
      expect(run.stderr).toContain('Could not read the recording nope.ndjson: no such file');
      expect(run.stderr, args.join(' ')).toContain(hint);
    }
    // validate names each input as given, and the same thing to check
    const validated = await runCli(['validate', 'nope.json'], { cwd: dir });
    expect(validated.code).toBe(2);
    expect(validated.stdout).toContain(
      'Check the path: a relative path is read from the folder svc-cli runs in.',
    );
  });

  it('a recording that cannot be read leaves the last report and trace file as they were', async () => {
    const html = join(dir, 'kept.html');
    const otlp = join(dir, 'kept.json');
    writeFileSync(html, 'last report');
    writeFileSync(otlp, 'last trace');
    const missing = join(dir, 'missing.ndjson');
    const reported = await runCli(['report', missing, '--out', html]);
    expect(reported.code).toBe(2);
    expect(reported.stderr).toContain('SVC_E_READ');
    const notJournal = await runCli(['report', join(dir, 'kept.json'), '--out', html]);
    expect(notJournal.code).toBe(2);
    const traced = await runCli(['trace', missing, '--format', 'otlp-json', '--out', otlp]);
    expect(traced.code).toBe(2);
    const chat = await runCli(['report', recording, '--chat', '99', '--out', html]);
    expect(chat.code).toBe(2);
    expect(readFileSync(html, 'utf8')).toBe('last report');
    expect(readFileSync(otlp, 'utf8')).toBe('last trace');
    // no temporary left beside them
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('svc-cli report and replay --report', () => {
  it('writes one self-contained HTML file with a section per conversation', async () => {
    const out = join(dir, 'report.html');
    const run = await runCli(['report', recording, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    // in the words replay --report and conform --report use
    expect(run.stderr).toContain(`HTML report written to ${out}: 2 conversations`);
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<section class="conv/g)).toHaveLength(2);
    // no network: nothing is loaded from elsewhere
    expect(html).not.toMatch(/<(link|img|script)[^>]+(src|href)=/);
  });

  it('replay --report names each conversation in the file', async () => {
    const out = join(dir, 'replay.html');
    const run = await runCli([
      'replay',
      'fixtures/conversations/transcript-redelivered.json',
      '--report',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `HTML report written to ${out}: 1 conversation, 0 invariant violations`,
    );
    expect(readFileSync(out, 'utf8')).toContain(
      'redelivered agent message: in the chat_finished transcript once · chat 1',
    );
  });

  it('replay --profile docs --report judges the hand-over by the profile, as the replay does', async () => {
    // docs: 3 bot attempts, the hand-over at 9 s; the fixture pins the spec's 2 attempts
    const out = join(dir, 'docs-profile.html');
    const run = await runCli([
      'replay',
      'fixtures/conversations/bot-timeout.json',
      '--profile',
      'docs',
      '--report',
      out,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).not.toContain('handover-budget');
    expect(run.stderr).toContain(
      `HTML report written to ${out}: 1 failed, 1 conversation, 0 invariant violations`,
    );
  });

  it('replay --report marks a failed conversation red with the step that failed', async () => {
    // its invariants hold: the page must not look green while the run exits 1
    const fixture = join(dir, 'two-attempts.json');
    writeFileSync(
      fixture,
      JSON.stringify({
        version: 1,
        name: 'expects a redelivery that never comes',
        steps: [
          { customer: { text: 'Where is my parcel?', sender: { id: 'c-1' } } },
          { name: 'reply', agent: { text: 'Checking now.' }, delivery: { attempts: 2 } },
        ],
      }),
    );
    const out = join(dir, 'failed.html');
    const run = await runCli(['replay', fixture, '--report', out]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `HTML report written to ${out}: 1 failed, 1 conversation, 0 invariant violations`,
    );
    const page = readFileSync(out, 'utf8');
    expect(page).toMatch(/<section class="conv has-bad"[^>]*aria-label="expects a redelivery/);
    expect(page).toContain('<span class="badge bad">failed</span>');
    expect(page).toContain('<b>✗ reply</b><br>attempts: expected 2, got 1');
    expect(page).toContain('<b class="bad">1</b> failed');
  });
});

describe('a HAR cut off mid-write', () => {
  it('trace and record to-fixture say it ends early, exit 2', async () => {
    const cut = join(dir, 'cut.har');
    writeFileSync(
      cut,
      '{\n  "log": {\n    "version": "1.2",\n    "entries": [\n      {"startedDateTime": "2026',
    );
    for (const argv of [
      ['trace', cut],
      ['record', 'to-fixture', cut],
    ]) {
      const run = await runCli(argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toContain(
        `Could not read ${cut}: the HAR ends before its JSON does (cut off?).`,
      );
    }
  });
});
