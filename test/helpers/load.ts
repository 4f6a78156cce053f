/**
 * Load without loss: `clients` customers post `messages` in all to a platform while
 * the agent side answers each one, delivered to a `listen` that fails a seeded third of the
 * attempts. Shared by test/integration/load.test.ts; bench/load.js runs the same at 50,000.
 */
import { Agent, request } from 'undici';
import { createClock, createVirtualClock } from '../../src/clock.js';
import { createJournal, type Journal } from '../../src/journal/index.js';
import {
  createPlatform,
  sendAgentMessage,
  type AgentMessageResult,
} from '../../src/platform/index.js';
import { createListener, type AgentMessageEvent } from '../../src/roles/integrator/index.js';

export interface LoadReport {
  sent: number;
  accepted: number;
  results: AgentMessageResult[];
  attempts: Map<string, AgentMessageEvent[]>;
  journal: Journal;
  wallMs: number;
}

export async function runLoad(options: {
  messages: number;
  clients: number;
  /** a real clock at this scale, or the virtual clock (no result depends on the machine) */
  timeScale: number | 'virtual';
  seed: number;
}): Promise<LoadReport> {
  const virtual = options.timeScale === 'virtual' ? createVirtualClock() : undefined;
  const clock =
    virtual ?? createClock({ timeScale: options.timeScale === 'virtual' ? 1 : options.timeScale });
  const attempts = new Map<string, AgentMessageEvent[]>();
  const listener = await createListener({
    clock,
    plan: { fault: { kind: 'status', status: 500 }, rate: 0.33, seed: options.seed },
    onEvent: (event) => {
      if (event.type !== 'agent-message' || event.messageId === undefined) return;
      const list = attempts.get(event.messageId) ?? [];
      list.push(event);
      attempts.set(event.messageId, list);
    },
  });
  const journal = createJournal({ keep: options.messages * 10 });
  const platform = createPlatform({
    clock,
    journal,
    channels: [
      { id: 'shop', randomString: 'load-random-string-0000', integratorUrl: listener.url },
    ],
  });
  const server = await platform.listen({ port: 0 });
  const url = `${server.url}/load-random-string-0000/shop`;
  const answers: Promise<AgentMessageResult>[] = [];
  // the agent answers every customer message (spec 4.2: delivered with redelivery)
  platform.core.on((event) => {
    if (event.type !== 'customer-message') return;
    answers.push(
      sendAgentMessage(platform.core, {
        chatId: event.chatId,
        message: { type: 'text', text: `re: ${event.text ?? ''}` },
      }),
    );
  });
  const dispatcher = new Agent({ connections: options.clients, pipelining: 1 });
  const started = performance.now();
  let next = 0;
  let accepted = 0;
  const client = async (n: number): Promise<void> => {
    while (next < options.messages) {
      const i = next++;
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sender: { id: `customer-${n}` },
          message: { type: 'text', text: `message ${i}` },
        }),
      });
      await response.body.dump();
      if (response.statusCode === 200) accepted++;
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, n) => client(n)));
  if (virtual) {
    // every answer is under way now: move the clock from timer to timer until all settled
    let settled = 0;
    for (const answer of answers) void answer.finally(() => settled++);
    while (settled < answers.length) {
      if (!(await virtual.runUntil(() => settled === answers.length))) await Promise.race(answers);
    }
  }
  const results = await Promise.all(answers);
  const wallMs = performance.now() - started;
  await platform.close();
  await listener.close(10);
  await dispatcher.close();
  return { sent: next, accepted, results, attempts, journal, wallMs };
}
