// A hook receiver written the way a third party writes one in Node: plain node:http, no
// framework, state per chat in one JSON file. Not svc-cli code.
//
//   PEER_SLOW_MS=2500 PEER_STATE=/tmp/hooks.json node slow-hooks.mjs --port 9400
//
// Every reply waits PEER_SLOW_MS (default 2000) ms: it looks the visitor up somewhere slow.
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { setTimeout } from 'node:timers';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const slowMs = Number(process.env.PEER_SLOW_MS ?? 2000);
const stateFile = process.env.PEER_STATE ?? 'slow-hooks.json';
const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : {};

const server = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    let event;
    try {
      event = JSON.parse(text);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const chat = String(event.chat_id ?? event.offline_message_id);
    (state[chat] ??= []).push(event.event_name);
    writeFileSync(stateFile, JSON.stringify(state));
    // the answer is decided now (how many events of this chat it has seen), sent later
    const seen = state[chat].length;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { result: 'ok', seen } }));
    }, slowMs);
  });
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`node slow hooks ready on http://127.0.0.1:${port}/hooks\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
