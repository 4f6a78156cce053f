import { createClock } from '../../src/clock.js';
import { postJson } from '../../src/http/client.js';
import {
  createListener,
  type Listener,
  type ListenerEvent,
  type ListenerOptions,
} from '../../src/roles/integrator/index.js';

/** A listener whose events are collected and awaited (no sleeps). */
export interface ListenerHarness {
  listener: Listener;
  events: ListenerEvent[];
  /** Resolves when `n` events in all have arrived. */
  waitForEvents(n: number): Promise<ListenerEvent[]>;
}

const open: Listener[] = [];

export async function startListener(options: ListenerOptions = {}): Promise<ListenerHarness> {
  const events: ListenerEvent[] = [];
  const waiters: Array<{ n: number; resolve: (e: ListenerEvent[]) => void }> = [];
  const listener = await createListener({
    clock: createClock({ timeScale: 0.001 }),
    ...options,
    onEvent: (event) => {
      events.push(event);
      for (const w of waiters.filter((w) => events.length >= w.n)) w.resolve(events);
    },
  });
  open.push(listener);
  return {
    listener,
    events,
    waitForEvents: (n) =>
      events.length >= n
        ? Promise.resolve(events)
        : new Promise((resolve) => waiters.push({ n, resolve })),
  };
}

export async function closeListeners(): Promise<void> {
  await Promise.all(open.splice(0).map((l) => l.close(10)));
}

/** An agent message (spec 2.2). */
export const agentText = (id = 'm-1', text = 'Hello from the agent') => ({
  sender: { name: 'Anna', photo: 'https://example.test/anna.png' },
  recipient: { id: 'cust-1' },
  message: { type: 'text', id, text },
});

/** POSTs JSON to the listener on a fast clock (timeout 100 s protocol = 1 s wall by default). */
export function post(
  url: string,
  body: unknown,
  options: { chunked?: boolean; timeoutMs?: number } = {},
) {
  return postJson({
    url,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    chunked: options.chunked ?? false,
    timeoutMs: options.timeoutMs ?? 100_000,
    clock: createClock({ timeScale: 0.01 }),
  });
}
