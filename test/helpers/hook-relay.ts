import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test peer's planted cross-interface bug: a relay between a platform's hook delivery and
 * the receiver it should reach, which hands each hook on after `tamper` changed its body (or
 * unchanged without one). Put it as the platform's hook URL and `target` as the receiver.
 */
export interface HookRelay {
  url: string;
  /** every event_name relayed, in order */
  relayed: string[];
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

export async function startHookRelay(
  target: () => string,
  tamper?: (body: Body) => Body,
  /** more hooks to send once this one was answered (a late hook) */
  then?: (body: Body) => Body[],
): Promise<HookRelay> {
  const relayed: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      relayed.push(String(body.event_name));
      const sent = tamper ? tamper(body) : body;
      fetch(target(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      })
        .then(async (answer) => {
          const text = await answer.text();
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
          for (const more of then?.(body) ?? []) {
            relayed.push(String(more.event_name));
            await fetch(target(), {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(more),
            });
          }
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    relayed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The planted bug: chat_finished logs each agent message twice, as a platform that wrote a
 * log line per delivery attempt would after a redelivery (spec 2.6: a message is logged once).
 */
export function agentLinesTwice(body: Body): Body {
  if (body.event_name !== 'chat_finished') return body;
  const chat = body.chat as { messages?: Array<{ type?: string }> } | undefined;
  if (!chat?.messages) return body;
  return {
    ...body,
    chat: {
      ...chat,
      messages: chat.messages.flatMap((m) => (m.type === 'agent' ? [m, m] : [m])),
    },
  };
}

/**
 * The planted bug: after chat_finished, a chat_updated about the same chat (spec 6.2:
 * chat_finished is the chat's last hook).
 */
export function updateAfterFinish(body: Body): Body[] {
  return body.event_name === 'chat_finished' ? [{ ...body, event_name: 'chat_updated' }] : [];
}
