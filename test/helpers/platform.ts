import { afterEach } from 'vitest';
import type { Clock } from '../../src/clock.js';
import {
  createPlatform,
  type Platform,
  type PlatformEvent,
  type PlatformOptions,
} from '../../src/platform/index.js';

export interface PlatformHarness {
  platform: Platform;
  events: PlatformEvent[];
  url: string;
  channelUrl: string;
  statusUrl: string;
  of: <T extends PlatformEvent['type']>(type: T) => Extract<PlatformEvent, { type: T }>[];
}

const running: Platform[] = [];
afterEach(async () => {
  const closing = running.splice(0);
  await Promise.all(closing.map((p) => p.close()));
  // events observe, lifecycle hooks decide: a listener that changed a chat fails the test
  const [failure] = closing.flatMap((p) => p.core.observerFailures);
  if (failure) throw failure;
});

/**
 * A platform on 127.0.0.1 port 0 whose events are collected; closed after each test, which
 * fails when a listener changed a chat (`checkObservers`, on unless the test says otherwise).
 */
export async function startPlatform(
  options: PlatformOptions & { clock: Clock },
): Promise<PlatformHarness> {
  const platform = createPlatform({ checkObservers: true, ...options });
  const events: PlatformEvent[] = [];
  platform.core.on((event) => events.push(event));
  const server = await platform.listen({ port: 0 });
  running.push(platform);
  const channel = [...platform.core.state.channels.values()][0]!;
  const info = platform.core.channelInfo(channel);
  return {
    platform,
    events,
    url: server.url,
    channelUrl: info.url,
    statusUrl: info.statusUrl,
    of: (type) => events.filter((e) => e.type === type) as never,
  };
}

/** POSTs a JSON value (or raw text) and returns status and parsed body. */
export async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, body: parsed };
}

export const customerText = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  sender: { id, ...extra },
  message: { type: 'text', text },
});
