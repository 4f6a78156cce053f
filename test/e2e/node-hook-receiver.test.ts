import { afterEach, describe, expect, it } from 'vitest';
import { closePeers, startPeer } from '../helpers/broken-peers.js';
import { spawnCli } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * A hook receiver written the way small Node receivers for the platform are: one route
 * (POST /webhook) that answers `{"ok":true}` to every event, and the framework's default
 * page for any other path: a one-word title, the method and path in a <pre>. A stand-in
 * written here; it reproduces the behaviour, not anyone's code.
 */
function startNodeReceiver(): Promise<string> {
  return startPeer((req, res) => {
    if (req.method === 'POST' && req.url === '/webhook') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"ok":true}');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${req.method ?? ''} ${req.url ?? ''}</pre>\n</body>\n</html>\n`,
    );
  });
}

afterEach(closePeers);

describe('hook-fire against a small Node receiver', () => {
  it('names the 404 page of a wrong path in one line, with what it said', async () => {
    const base = await startNodeReceiver();
    const run = await runCli(['hook-fire', 'chat_accepted', '--url', base]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toBe(
      '    reply    HTML page "Error": Cannot POST / (140 characters) (--verbose prints it all)',
    );
    expect(run.stdout).not.toContain('<!DOCTYPE');
  });

  it("asks whether the hook URL's path is the receiver's route when it answers 404", async () => {
    const base = await startNodeReceiver();
    const fired = await runCli(['hook-fire', 'chat_accepted', '--url', `${base}/hooks`]);
    expect(fired.code).toBe(1);
    expect(fired.stdout).toContain(
      "    ✗ (root): HTTP 404; expected 200 with a JSON reply; the platform posts to the hook URL as set, path and all (here /hooks): is that your receiver's route? (spec 4.4)",
    );
    const conform = await runCli(['conform', 'hooks', '--url', `${base}/hooks`]);
    expect(conform.code).toBe(1);
    expect(conform.stdout).toContain("(here /hooks): is that your receiver's route? (spec 4.4)");
    // the right path: no such line
    const right = await runCli(['hook-fire', 'chat_accepted', '--url', `${base}/webhook`]);
    expect(right.stdout).not.toContain('path and all');
  });
});

describe('a receiver that answers {"ok":true}', () => {
  it('hook-fire and conform hooks say what the smallest conforming reply is', async () => {
    const base = await startNodeReceiver();
    const hint = 'result: required; a minimal valid reply is {"result":"ok"} (spec 6.2)';
    const fired = await runCli(['hook-fire', 'chat_finished', '--url', `${base}/webhook`]);
    expect(fired.code).toBe(1);
    expect(fired.stdout).toContain(`✗ ${hint}`);
    const conform = await runCli(['conform', 'hooks', '--url', `${base}/webhook`]);
    expect(conform.code).toBe(1);
    expect(conform.stdout).toContain(`reply: ${hint}`);
  });
});

describe("hook-fire and the public Webhooks page's client events", () => {
  it('refuses client_updated without --profile docs by naming the flag, fires it with it', async () => {
    const received: string[] = [];
    const base = await startPeer((_req, res, body) => {
      received.push(String((JSON.parse(body) as { event_name?: unknown }).event_name));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const refused = await runCli(['hook-fire', 'client_updated', '--url', `${base}/webhook`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'Could not fire "client_updated": it is an event of the public Webhooks page, beyond spec 6.2.',
    );
    expect(refused.stderr).toContain('Add --profile docs to fire it');
    expect(received).toEqual([]);
    const one = await runCli([
      'hook-fire',
      'client_updated',
      '--profile',
      'docs',
      '--url',
      `${base}/webhook`,
    ]);
    // the page documents any answer the receiver takes the event with: an object, 2xx
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(one.stdout).toMatch(/^client_updated\s+→ 200 .*✓ reply conforms/);
    const all = await runCli([
      '--json',
      'hook-fire',
      '--all',
      '--profile',
      'docs',
      '--url',
      `${base}/webhook`,
    ]);
    expect(all.code).toBe(1); // {"ok":true} has no result for the spec's events
    expect(received.slice(1)).toEqual([
      'chat_accepted',
      'chat_updated',
      'chat_assigned',
      'chat_finished',
      'call_event',
      'offline_message',
      'client_updated',
      'client_attribute_updated',
    ]);
    const columns = await runCli(['hook-fire', '--all', '--profile', 'docs', '--url', base]);
    const arrows = columns.stdout
      .split('\n')
      .filter((line) => line.includes('→'))
      .map((line) => line.indexOf('→'));
    expect(arrows).toHaveLength(8);
    expect(new Set(arrows).size).toBe(1); // one column, the longest name included
  });
});

describe('platform --hook-url with a receiver that answers {"ok":true}', () => {
  it('prints the issues of a broken hook reply once', async () => {
    const base = await startNodeReceiver();
    const platform = spawnCli([
      'platform',
      '--port',
      '0',
      '--channel-id',
      'shop',
      '--random-string',
      'r4nd0m',
      '--hook-url',
      `${base}/webhook`,
    ]);
    const banner = await platform.next((o) => String(o.line).includes('listening on'));
    const url = /http:\/\/\S+/.exec(String(banner.line))![0];
    const customer = await fetch(`${url}/r4nd0m/shop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'Oi' } }),
    });
    expect(customer.status).toBe(200);
    // the agent answers: the chat is accepted (hook chat_accepted), then closed (chat_finished)
    await fetch(`${url}/_sim/agent/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerId: 'c-1', text: 'Hello' }),
    });
    await fetch(`${url}/_sim/chats/1/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const head = await platform.next((o) =>
      String(o.line).includes('hook reply hook.chat_finished.reply'),
    );
    const after = (o: Record<string, unknown>) =>
      platform.lines.indexOf(o) > platform.lines.indexOf(head);
    await platform.next((o) => after(o) && String(o.line).includes('result: required'));
    const text = platform.lines.map((o) => String(o.line)).join('\n');
    // one ✗ line per reply with its verdict, one with what the platform did, the issue once,
    // saying what a reply that conforms is
    const issue = '• result: required; a minimal valid reply is {"result":"ok"} (spec 6.2)';
    expect(text.split(issue)).toHaveLength(3);
    expect(text).toMatch(/✗ hook chat_accepted reply breaks the contract\n/);
    expect(text).toMatch(/✗ hook reply hook\.chat_accepted\.reply ignored\n\s+• result: required/);
  });
});
