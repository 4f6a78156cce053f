// A shop's chat bridge, as a team integrating with the platform would write it: it sends its
// customers' messages to the platform's chat channel and shows them what agents answer (an
// HTTP endpoint the platform posts agent messages to). weak.test.mjs and strong.test.mjs test
// it against the msw handlers of svc-cli; `svc-cli mutate` shows what each suite would miss.
import { createServer } from 'node:http';

const readBody = (request) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/**
 * Starts the bridge's endpoint on a free loopback port.
 * channelUrl and statusUrl: the platform's chat channel.
 */
export async function startBridge({ channelUrl, statusUrl }) {
  const inboxes = new Map();
  const typing = new Map();
  const seen = new Set();
  /** every request the endpoint took: how the body was framed, the parsed body */
  const requests = [];
  let failures = 0;

  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const framing = request.headers['transfer-encoding'] === 'chunked' ? 'chunked' : 'length';
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        response.writeHead(400).end();
        return;
      }
      requests.push({ framing, body });
      if (failures > 0) {
        failures -= 1;
        response.writeHead(500).end();
        return;
      }
      const customer = String(body.recipient?.id ?? '');
      const message = body.message ?? {};
      if (message.type === 'typein' || message.type === 'typeout') {
        typing.set(customer, message.type === 'typein');
      } else if (!seen.has(String(message.id))) {
        // a redelivered message keeps its id: show it once
        seen.add(String(message.id));
        typing.set(customer, false);
        const inbox = inboxes.get(customer) ?? [];
        inbox.push({ id: message.id, text: message.text, agent: body.sender?.name ?? 'Agent' });
        inboxes.set(customer, inbox);
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"result":"ok"}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  return {
    /** the integrator URL to configure on the channel */
    url: `http://127.0.0.1:${port}`,
    requests,
    /** what the customer sees, oldest first */
    inbox: (customerId) => inboxes.get(customerId) ?? [],
    isTyping: (customerId) => typing.get(customerId) ?? false,
    /** the endpoint answers the next n requests 500 (a deploy, a crash) */
    failNext(n) {
      failures = n;
    },
    /** a customer's text to the platform: ok is false when the platform refused it */
    async send(customerId, text, url = channelUrl) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: { id: customerId }, message: { type: 'text', text } }),
      });
      return { ok: response.status === 200, status: response.status };
    },
    /** the chat button: shown while an agent is online */
    async agentsOnline() {
      return (await (await fetch(statusUrl)).text()).trim() === '1';
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
