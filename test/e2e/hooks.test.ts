/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { closeAll, post, startTarget } from '../helpers/hooks.js';

const BIN = fileURLToPath(new URL('../../bin/svc-cli.js', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await closeAll();
});

interface Run {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the next NDJSON object on stdout that matches. */
  next(match: (o: Record<string, any>) => boolean): Promise<Record<string, any>>;
  lines: Array<Record<string, any>>;
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Spawns the built CLI (npm run build first) with NO_COLOR, reading NDJSON stdout. */
function run(args: string[]): Run {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  children.push(child);
  const lines: Array<Record<string, any>> = [];
  const waiters: Array<{ match: (o: Record<string, any>) => boolean; resolve: (o: any) => void }> =
    [];
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const obj = JSON.parse(line) as Record<string, any>;
    lines.push(obj);
    for (const w of waiters.splice(0)) {
      if (w.match(obj)) w.resolve(obj);
      else waiters.push(w);
    }
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    lines,
    stderr: () => err,
    exit,
    next: (match) => {
      const found = lines.find(match);
      return found
        ? Promise.resolve(found)
        : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

describe('svc-cli hook-fire (spawned)', () => {
  it('pretty: one aligned line per event and a summary; bodies with --verbose', async () => {
    const { target } = await startTarget();
    const r = await runCli(['hook-fire', '--all', '--url', target.url]);
    expect(r.code).toBe(0);
    const text = r.stdout;
    expect(text).toMatch(/^chat_accepted +→ 200 +\d+ms +✓ reply conforms$/m);
    expect(text).not.toContain('request ');
    expect(text).toContain('6 events fired: 6 replies conform, 0 break the contract');
    const verbose = await runCli(['hook-fire', 'chat_updated', '--url', target.url, '--verbose']);
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toMatch(/request +\{"event_name":"chat_updated"/);
  });

  it('fires one event, prints NDJSON and exits 0', async () => {
    const { target } = await startTarget();
    const r = run(['--json', 'hook-fire', 'chat_accepted', '--url', target.url]);
    expect(await r.exit).toBe(0);
    expect(r.lines).toHaveLength(2);
    expect(r.lines[1]).toEqual({
      type: 'summary',
      fired: 1,
      conform: 1,
      broken: 0,
      chatId: expect.any(Number),
    });
    expect(r.lines[0]).toMatchObject({
      type: 'hook-fired',
      event: 'chat_accepted',
      status: 200,
      verdict: { ok: true, errors: [] },
      reply: { result: 'ok', crm_link: 'https://crm.example.com/contacts/4711' },
    });
    expect(r.stderr()).toBe('');
  });

  it('--all fires the lifecycle; a contract-breaking reply exits 1', async () => {
    const { target } = await startTarget({ replies: { chat_finished: { result: 'nope' } } });
    const r = run(['--json', 'hook-fire', '--all', '--url', target.url]);
    expect(await r.exit).toBe(1);
    expect(r.lines.map((l) => l.event ?? l.type)).toEqual([
      'chat_accepted',
      'chat_updated',
      'chat_assigned',
      'chat_finished',
      'call_event',
      'offline_message',
      'summary',
    ]);
    expect(r.lines[6]).toEqual({
      type: 'summary',
      fired: 6,
      conform: 5,
      broken: 1,
      chatId: expect.any(Number),
    });
    expect(r.lines[3]!.verdict.errors).toMatchObject([{ path: 'result', spec: '6.2' }]);
  });

  it('each run is a new chat, one chat for --all; --chat-id sends an event about a given chat', async () => {
    const { target } = await startTarget();
    const chatIdsOf = async (args: string[]) => {
      const r = run(['--json', 'hook-fire', ...args, '--url', target.url]);
      expect(await r.exit).toBe(0);
      const fired = r.lines.filter((l) => l.type === 'hook-fired');
      const summary = r.lines.at(-1) as { chatId?: number };
      return {
        sent: fired.map((l) => (l.request as { chat_id?: number }).chat_id),
        summary: summary.chatId,
      };
    };
    const first = await chatIdsOf(['--all']);
    const second = await chatIdsOf(['--all']);
    // one chat per lifecycle (offline_message is about none), the summary names it
    const chat = first.summary!;
    expect(first.sent).toEqual([chat, chat, chat, chat, chat, undefined]);
    expect(second.summary).not.toBe(chat);
    expect((await chatIdsOf(['chat_accepted'])).summary).not.toBe(chat);
    // the printed id, given back: one more event about the first run's chat
    expect(await chatIdsOf(['chat_updated', '--chat-id', String(chat)])).toEqual({
      sent: [chat],
      summary: chat,
    });
    const pretty = await runCli([
      'hook-fire',
      'chat_updated',
      '--url',
      target.url,
      '--chat-id',
      '77',
    ]);
    // the chat --chat-id named is not offered back as a flag to type
    expect(pretty.stdout).toContain('about chat 77 (--chat-id)');
    expect(pretty.stdout).not.toContain('sends more events');
    const fresh = await runCli(['hook-fire', 'chat_updated', '--url', target.url]);
    expect(fresh.stdout).toMatch(
      /about chat (\d+); --chat-id \1 sends more events about it \(each run is a new chat without it\)/,
    );
    // a --from body names its own chat, every run; a request broken on purpose is said apart
    // from the replies, which alone decide the exit code
    const fromFile = await runCli([
      'hook-fire',
      '--url',
      target.url,
      '--from',
      'fixtures/payloads/hooks/chat-accepted.valid.json',
      '--set',
      'agent.id=x',
    ]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(
      /1 event fired: 1 reply conforms, 0 break the contract \(1 request sent breaks it, as --set or --from gave it\)\nabout chat \d+, the chat_id of the --from body/,
    );
    // a --set field the contract does not know (a typo) is named with the request, and the
    // field it was likely meant to be, though the request still conforms
    const typo = await runCli([
      'hook-fire',
      'chat_accepted',
      '--url',
      target.url,
      '--set',
      'visitr.name=x',
    ]);
    expect(typo.code).toBe(0);
    expect(typo.stdout).toContain('(request has contract warnings)');
    expect(typo.stdout).toMatch(/! visitr: not in the spec .*did you mean visitor\? \(spec 6\.2\)/);
    // offline_message is about no chat: an input error, not a chat_id it does not carry
    const offline = await runCli([
      'hook-fire',
      'offline_message',
      '--url',
      target.url,
      '--chat-id',
      '77',
    ]);
    expect(offline.code).toBe(2);
    expect(offline.stderr).toContain('offline_message is about no chat and carries no chat_id');
  });

  it('posts to a hook URL as given: a receiver routed at /hooks/ gets /hooks/ (spec 4.4)', async () => {
    // web frameworks often route with a trailing slash and redirect the path without it
    const paths: string[] = [];
    const receiver = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      if (req.url === '/hooks/') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"result":"ok"}');
      } else {
        res.writeHead(308, { location: `${req.url}/` });
        res.end();
      }
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const r = await runCli([
        'hook-fire',
        'chat_updated',
        '--url',
        `http://127.0.0.1:${port}/hooks/`,
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(paths).toEqual(['/hooks/']);
    } finally {
      receiver.close();
    }
  });

  it('exits 3 when the receiver is unreachable and 2 for a refused --set key', async () => {
    const unreachable = run(['hook-fire', 'chat_updated', '--url', 'http://127.0.0.1:1/']);
    expect(await unreachable.exit).toBe(3);
    expect(unreachable.stderr()).toContain('SVC_E_HOOK_UNREACHABLE');
    // the hint starts a receiver on the port that was used
    expect(unreachable.stderr()).toContain('Try: svc-cli hook-target --port 1');
    // --wait (hooks.md's first hook-fire) keeps the code and the advice, with how long it tried
    const waited = run([
      'hook-fire',
      'chat_updated',
      '--url',
      'http://127.0.0.1:1/',
      '--wait',
      '200ms',
    ]);
    expect(await waited.exit).toBe(3);
    expect(waited.stderr()).toBe(
      'error [SVC_E_HOOK_UNREACHABLE] Could not fire: the hook receiver at http://127.0.0.1:1 is unreachable (connection refused, still after 200 ms).\n  Is the receiver running? Try: svc-cli hook-target --port 1.\n  more: svc-cli explain SVC_E_HOOK_UNREACHABLE\n',
    );
    const bad = run([
      'hook-fire',
      'chat_updated',
      '--url',
      'http://127.0.0.1:1/',
      '--set',
      '__proto__.x=1',
    ]);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain('SVC_E_SET_FORBIDDEN_KEY');
  });

  it('a --from file that is not JSON: one line with its place, not the file quoted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-from-'));
    writeFileSync(join(dir, 'bad.json'), 'not json {\n  "a": 1\n}\n');
    const from = run([
      'hook-fire',
      '--from',
      join(dir, 'bad.json'),
      '--url',
      'http://127.0.0.1:1/',
    ]);
    expect(await from.exit).toBe(2);
    expect(from.stderr()).toContain(
      `Could not read the hook body ${join(dir, 'bad.json')}:1:2: Unexpected token 'o'.`,
    );
    expect(from.stderr()).not.toContain('not json {');
  });
});

describe('fixtures/... of the docs outside a clone (spawned)', () => {
  it('hook-fire --from and hook-target --reply say they use the file shipped with svc-cli', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-newcomer-'));
    const body = 'fixtures/payloads/hooks/chat-accepted.valid.json';
    const fire = await runCli(['hook-fire', '--from', body, '--url', 'http://127.0.0.1:1/'], {
      cwd: empty,
    });
    expect(fire.code).toBe(3);
    expect(fire.stderr).toContain(
      `--from: no ${body} here; using the one shipped with svc-cli, ${join(repoRoot, body)}`,
    );
    const reply = 'fixtures/hooks/crm-reply.json';
    const target = spawn(
      process.execPath,
      [BIN, 'hook-target', '--port', '0', '--reply', `chat_accepted=${reply}`],
      { cwd: empty, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
    );
    children.push(target);
    let err = '';
    target.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const [listening] = (await once(createInterface({ input: target.stdout }), 'line')) as [string];
    expect(listening).toContain('listening');
    // all of stderr read: the two pipes are not read in the order they were written
    target.kill('SIGINT');
    await once(target, 'close');
    expect(err).toContain(
      `--reply chat_accepted: no ${reply} here; using the one shipped with svc-cli, ${join(repoRoot, reply)}`,
    );
    // a file of the working folder is used as given, without the note
    const local = await runCli(['hook-fire', '--from', body, '--url', 'http://127.0.0.1:1/'], {
      cwd: repoRoot,
    });
    expect(local.stderr).not.toContain('shipped with svc-cli');
  });
});

describe('hook-fire refusals say what to do (spawned)', () => {
  it('--all with an event, and a --set path the guard refuses, each with a hint, exit 2', async () => {
    const url = 'http://127.0.0.1:1/hooks';
    const both = await runCli(['hook-fire', 'chat_accepted', '--all', '--url', url]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--all takes no <event> and no --from.');
    expect(both.stderr).toContain('svc-cli hook-fire --all --url <receiver>');
    const proto = await runCli([
      'hook-fire',
      'chat_accepted',
      '--set',
      '__proto__.x=1',
      '--url',
      url,
    ]);
    expect(proto.code).toBe(2);
    expect(proto.stderr).toContain('(prototype pollution guard)');
    expect(proto.stderr).toContain('e.g. --set visitor.name=Jane');
  });
});

describe('hook-target --reply with a mistyped event (spawned)', () => {
  it('names the event meant and shows the flag written out, exit 2', async () => {
    const typo = await runCli([
      'hook-target',
      '--port',
      '0',
      '--reply',
      'chat_acepted=fixtures/hooks/crm-reply.json',
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'offline_message. Did you mean chat_accepted?\n  Example: --reply chat_accepted=fixtures/hooks/crm-reply.json\n',
    );
    // a file without its event: the example puts one in front
    const bare = await runCli(['hook-target', '--port', '0', '--reply', 'crm.json']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).not.toContain('Did you mean');
    expect(bare.stderr).toContain('  Example: --reply chat_accepted=crm.json\n');
  });
});

describe('svc-cli hook-target and platform --hook-url (spawned)', () => {
  it('hook-target prints listening first, then each event; SIGINT exits 130', async () => {
    const target = run(['--json', 'hook-target', '--port', '0']);
    const listening = await target.next((o) => o.type === 'listening');
    expect(target.lines[0]).toBe(listening);
    const fire = run([
      '--json',
      'hook-fire',
      'offline_message',
      '--offline-name',
      'offline_messages',
      '--url',
      listening.url,
    ]);
    expect(await fire.exit).toBe(0);
    const received = await target.next((o) => o.type === 'hook-received');
    expect(received).toMatchObject({ eventName: 'offline_messages', verdict: { ok: true } });
    target.child.kill('SIGINT');
    expect(await target.exit).toBe(130);
  });

  it('platform sends chat_accepted and chat_finished to hook-target as a chat lives', async () => {
    const target = run(['--json', 'hook-target', '--port', '0']);
    const { url: hookUrl } = await target.next((o) => o.type === 'listening');
    const platform = run(['--json', 'platform', '--port', '0', '--hook-url', hookUrl]);
    const listening = await platform.next((o) => o.type === 'listening');
    const channelUrl = listening.channels[0].url as string;
    await post(channelUrl, {
      sender: { id: 'c-1', name: 'Jane' },
      message: { type: 'text', text: 'Hi' },
    });
    await post(`${listening.url}/_sim/agent/message`, { chatId: 1, text: 'Hello!' });
    const crm = await platform.next((o) => o.type === 'crm-data');
    expect(crm).toMatchObject({
      chatId: 1,
      shown: true,
      crmLink: 'https://crm.example.com/contacts/4711',
    });
    await post(`${listening.url}/_sim/chats/1/close`, {});
    const finished = await platform.next(
      (o) => o.type === 'hook-reply' && o.event === 'chat_finished',
    );
    expect(finished).toMatchObject({ verdict: 'ok', result: 'ok' });
    await target.next((o) => o.type === 'hook-received' && o.eventName === 'chat_finished');
    const events = target.lines.filter((l) => l.type === 'hook-received').map((l) => l.eventName);
    expect(events).toContain('chat_accepted');
    platform.child.kill('SIGINT');
    target.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
    expect(await target.exit).toBe(130);
  });
});
