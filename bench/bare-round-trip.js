// The machine's floor for the bot round trip (issue 18 part 4), a baseline in the same run:
// the same four exchanges as the simulator's (customer -> platform -> bot -> platform ->
// integrator) between bare node:http servers in this process, each answering 200 and
// parsing the JSON, with undici's global client as svc-cli's exchanges use it; no validation,
// no journal, no events. Whatever tail this has beside a load is the machine's, not svc-cli's.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { ANSWER_LIMIT_MS } from './round-trips.js';

const OK = '{"result":"ok"}';

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

async function post(url, body) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.body.json();
}

function serve(onBody) {
  const server = http.createServer((req, res) => {
    readJson(req).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': OK.length });
        res.end(OK);
        onBody(req.url, body);
      },
      () => {
        res.writeHead(400);
        res.end();
      },
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

/**
 * Starts the bare world; `converse(customer, text, n)` resolves when the echo reached the
 * integrator, as trackRoundTrips's does. `latencies` / `later` (n > 0) hold the round trips.
 */
export async function startBareWorld() {
  const waiting = new Map();
  const latencies = [];
  const later = [];
  const listener = await serve((_, body) => waiting.get(body.chat)?.());
  let platform;
  const bot = await serve((_, body) =>
    post(`${platform.url}/answer`, { chat: body.chat, text: `echo ${body.text}` }).catch(() => {}),
  );
  platform = await serve((path, body) =>
    (path === '/answer'
      ? post(listener.url, { chat: body.chat, text: body.text })
      : post(bot.url, { chat: body.sender.id, text: body.message.text })
    ).catch(() => {}),
  );
  const converse = (customer, text, n = 0) =>
    new Promise((resolve) => {
      const started = performance.now();
      const limit = setTimeout(() => {
        waiting.delete(customer);
        latencies.push(ANSWER_LIMIT_MS);
        resolve();
      }, ANSWER_LIMIT_MS);
      waiting.set(customer, () => {
        const ms = performance.now() - started;
        latencies.push(ms);
        if (n > 0) later.push(ms);
        waiting.delete(customer);
        clearTimeout(limit);
        resolve();
      });
      post(`${platform.url}/customer`, {
        sender: { id: customer },
        message: { type: 'text', text },
      }).catch(() => {});
    });
  const close = async () => {
    for (const { server } of [listener, bot, platform]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  };
  return { converse, latencies, later, stop: () => {}, close };
}
