import { afterEach, describe, expect, it } from 'vitest';
import { closePeers, startPeer } from '../helpers/broken-peers.js';
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
