/**
 * The serving roles under fuzz, each in process on 127.0.0.1 port 0 with its own journal:
 * the platform (channel, bot webhooks and providers paths, control API), listen, bot-sim and
 * hook-target. Counts the requests that reached each handler, so a property can check that
 * every one was journaled exactly once.
 */
import { createClock } from '../../src/clock.js';
import { requestPathOf, type RunningServer } from '../../src/http/server.js';
import { createJournal, type Journal } from '../../src/journal/index.js';
import { createPlatform } from '../../src/platform/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener } from '../../src/roles/integrator/index.js';

export const SECRET = 'fuzz-random-string-0123456789';
export const TOKEN = 'fuzz-bot-token-0123';

export interface FuzzTarget {
  name: 'platform' | 'listen' | 'bot-sim' | 'hook-target';
  port: number;
  journal: Journal;
  /** paths a real peer would use: the fuzzer mutates around them */
  paths: string[];
  /** requests that reached the handler and must be journaled (control-API reads are not) */
  handled(): number;
  /** journaled requests served (direction `in`) */
  journaled(): number;
  close(): Promise<void>;
}

const LIMITS = { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 500 };

function countRequests(
  server: RunningServer,
  skip: (method: string, path: string) => boolean = () => false,
): () => number {
  let count = 0;
  server.server.on('request', (req: { method?: string; url?: string }) => {
    if (!skip(req.method ?? 'GET', requestPathOf(req.url).path)) count++;
  });
  return () => count;
}

const journalOf = (): Journal => createJournal({ keep: 1_000_000 });
const inbound = (journal: Journal) => () =>
  journal.entries().filter((e) => e.direction === 'in').length;

export async function startTargets(): Promise<FuzzTarget[]> {
  const clock = createClock({ timeScale: 0.0001 });
  const pj = journalOf();
  const platform = createPlatform({
    clock,
    journal: pj,
    channels: [
      { id: 'shop', randomString: SECRET, integratorUrl: 'http://127.0.0.1:9/agent' },
      { id: 'plain', randomString: `${SECRET}x` },
    ],
    bot: {
      providerUrl: 'http://127.0.0.1:9/bot',
      token: TOKEN,
      providerId: 'acme',
      channelIds: ['shop'],
      rateLimit: { max: 1_000_000, windowMs: 1000 },
    },
  });
  const ps = await platform.listen({ port: 0, bodyLimit: 4096, limits: LIMITS });
  const lj = journalOf();
  const listener = await createListener({ clock, journal: lj, bodyLimit: 4096, limits: LIMITS });
  const bj = journalOf();
  const bot = await createBotProvider({
    token: TOKEN,
    providerId: 'acme',
    clock,
    journal: bj,
    bodyLimit: 4096,
    limits: LIMITS,
    auth: { clientId: 'fuzz-client', clientSecret: 'fuzz-secret' },
  });
  const hj = journalOf();
  const hooks = await createHookTarget({ clock, journal: hj, bodyLimit: 4096, limits: LIMITS });
  return [
    {
      name: 'platform',
      port: ps.port,
      journal: pj,
      paths: [
        `/${SECRET}/shop`,
        `/${SECRET}/shop/status`,
        `/${SECRET}/plain`,
        `/webhooks/acme/${TOKEN}`,
        `/providers/acme/${TOKEN}`,
        '/oauth/token',
        '/_sim/agent/message',
        '/_sim/agent/typing',
        '/_sim/agents',
        '/_sim/chats/1/close',
        '/_sim/chats/1/assign',
        '/_sim/chats/1/rate',
        '/_sim/visitor/update',
        '/_sim/visitor/offline-message',
        '/_sim/calls',
        '/_sim/state',
        '/_sim/journal?since=-1&limit=abc',
      ],
      // control-API reads are not journaled (they poll); /_sim/events streams forever
      handled: countRequests(ps, (m, p) => m === 'GET' && p.startsWith('/_sim/')),
      journaled: inbound(pj),
      close: () => platform.close(),
    },
    {
      name: 'listen',
      port: listener.server!.port,
      journal: lj,
      paths: ['/shop', '/agent-messages/shop', '/'],
      handled: countRequests(listener.server!),
      journaled: inbound(lj),
      close: () => listener.close(10),
    },
    {
      name: 'bot-sim',
      port: bot.server!.port,
      journal: bj,
      paths: [`/${TOKEN}`, '/oauth/token', '/wrong-token'],
      handled: countRequests(bot.server!),
      journaled: inbound(bj),
      close: () => bot.close(10),
    },
    {
      name: 'hook-target',
      port: hooks.server!.port,
      journal: hj,
      paths: ['/', '/hooks'],
      handled: countRequests(hooks.server!),
      journaled: inbound(hj),
      close: () => hooks.close(10),
    },
  ];
}
