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
    // one ✗ line per reply with its verdict, one with what the platform did, the issue once
    expect(text.match(/• result: required \(spec 6\.2\)/g)).toHaveLength(2);
    expect(text).toMatch(/✗ hook chat_accepted reply breaks the contract\n/);
    expect(text).toMatch(/✗ hook reply hook\.chat_accepted\.reply ignored\n\s+• result: required/);
  });
});
