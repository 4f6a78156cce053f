import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClock, type Clock } from '../../src/clock.js';
import { readJsonBody, sendJson } from '../../src/http/body.js';
import { postJson } from '../../src/http/client.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import type { PlatformCore, PlatformEvent } from '../../src/platform/index.js';

/** A request the fake provider received. */
export interface ProviderHit {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data, read freely
  json: any;
  raw: string;
}

export type ProviderReply = number | 'hang' | { status: number; body: unknown };

export interface FakeProvider {
  url: string;
  hits: ProviderHit[];
  server: RunningServer;
  /** Resolves once `n` requests have arrived. */
  waitForHits(n: number): Promise<ProviderHit[]>;
}

const servers: RunningServer[] = [];

/** A minimal bot provider endpoint: records each request, answers as `reply` says (default 200). */
export async function startFakeProvider(
  reply: (hit: ProviderHit, n: number) => ProviderReply = () => 200,
): Promise<FakeProvider> {
  const hits: ProviderHit[] = [];
  const waiters: Array<{ n: number; resolve: (h: ProviderHit[]) => void }> = [];
  const server = await startServer({
    handler: async (req: IncomingMessage, res: ServerResponse) => {
      const body = await readJsonBody(req);
      const hit: ProviderHit = {
        path: new URL(req.url ?? '/', 'http://x').pathname,
        headers: req.headers,
        json: body.ok ? body.json : undefined,
        raw: body.ok ? body.raw : (body.raw ?? ''),
      };
      hits.push(hit);
      for (const w of waiters.filter((w) => hits.length >= w.n)) w.resolve(hits);
      const answer = reply(hit, hits.length);
      if (answer === 'hang') return; // never answer: the platform's attempt times out
      if (typeof answer === 'object') return sendJson(res, answer.status, answer.body);
      sendJson(res, answer, answer === 200 ? {} : { error: { code: 'x', message: 'refused' } });
    },
  });
  servers.push(server);
  return {
    url: server.url,
    hits,
    server,
    waitForHits: (n) =>
      hits.length >= n
        ? Promise.resolve(hits)
        : new Promise((resolve) => waiters.push({ n, resolve })),
  };
}

export async function closeFakeProviders(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.close(10)));
}

/** Collects a core's events; `waitFor` resolves on the first (past or future) match. */
export function collectEvents(core: PlatformCore) {
  const events: PlatformEvent[] = [];
  const waiters: Array<{
    pred: (e: PlatformEvent) => boolean;
    resolve: (e: PlatformEvent) => void;
  }> = [];
  core.on((event) => {
    events.push(event);
    for (const w of [...waiters]) {
      if (w.pred(event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  });
  return {
    events,
    of<T extends PlatformEvent['type']>(type: T): Extract<PlatformEvent, { type: T }>[] {
      return events.filter((e): e is Extract<PlatformEvent, { type: T }> => e.type === type);
    },
    waitFor<T extends PlatformEvent['type']>(
      type: T,
      pred: (e: Extract<PlatformEvent, { type: T }>) => boolean = () => true,
    ): Promise<Extract<PlatformEvent, { type: T }>> {
      const match = (e: PlatformEvent): boolean =>
        e.type === type && pred(e as Extract<PlatformEvent, { type: T }>);
      const past = events.find(match);
      if (past) return Promise.resolve(past as Extract<PlatformEvent, { type: T }>);
      return new Promise((resolve) =>
        waiters.push({ pred: match, resolve: resolve as (e: PlatformEvent) => void }),
      );
    },
  };
}

// a hang guard, not a budget: on the real clock, so a busy machine is not cut off at 1 s
const patient: Clock = createClock();

/** POSTs JSON (or a raw string) and returns status and parsed body. */
export async function postTo(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data, read freely
): Promise<{ status: number; json: any }> {
  const out = await postJson({
    url,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
    timeoutMs: 100_000,
    clock: patient,
  });
  if (!out.ok) throw new Error(`POST ${url} failed: ${out.message}`);
  let json: unknown;
  try {
    json = JSON.parse(out.body);
  } catch {
    json = out.body;
  }
  return { status: out.status, json };
}

/** A customer text message (spec 2.1). */
export const customerText = (text: string, id = 'cust-1') => ({
  sender: { id, name: 'Carla' },
  message: { type: 'text', text },
});

/** A BOT_MESSAGE (spec 6.1). */
export const botMessage = (chatId: string, message: Record<string, unknown>) => ({
  event: 'BOT_MESSAGE',
  id: `ev-${Math.random().toString(36).slice(2)}`,
  chat_id: chatId,
  message: { timestamp: 1700000000, ...message },
});
