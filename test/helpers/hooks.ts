import { createClock, createVirtualClock, type VirtualClock } from '../../src/clock.js';
import { postJson } from '../../src/http/client.js';
import {
  createPlatform,
  type Platform,
  type PlatformEvent,
  type PlatformOptions,
} from '../../src/platform/index.js';
import type { HookServiceOptions } from '../../src/platform/hooks/hook-service.js';
import {
  createHookTarget,
  type HookTarget,
  type HookTargetEvent,
  type HookTargetOptions,
} from '../../src/roles/hooks/index.js';

const openTargets: HookTarget[] = [];
const openPlatforms: Platform[] = [];

/** A hook receiver on 127.0.0.1:0 whose events are collected. */
export async function startTarget(
  options: HookTargetOptions = {},
): Promise<{ target: HookTarget; events: HookTargetEvent[] }> {
  const events: HookTargetEvent[] = [];
  const target = await createHookTarget({
    clock: createClock({ timeScale: 0.001 }),
    ...options,
    onEvent: (event) => events.push(event),
  });
  openTargets.push(target);
  return { target, events };
}

/** A platform on a virtual clock sending hooks to `hooks.url`, its events collected. */
export async function startHookPlatform(
  hooks: HookServiceOptions,
  more: Pick<PlatformOptions, 'chats'> = {},
): Promise<{
  platform: Platform;
  clock: VirtualClock;
  events: PlatformEvent[];
  channelUrl: string;
}> {
  const clock = createVirtualClock();
  // a listener that changed a chat fails the test at closeAll (events observe, hooks decide)
  const platform = createPlatform({ clock, hooks, checkObservers: true, ...more });
  const events: PlatformEvent[] = [];
  platform.core.on((event) => events.push(event));
  openPlatforms.push(platform);
  await platform.listen({ port: 0 });
  const channel = [...platform.core.state.channels.values()][0]!;
  return { platform, clock, events, channelUrl: platform.core.channelInfo(channel).url };
}

export async function closeAll(): Promise<void> {
  const closing = openPlatforms.splice(0);
  await Promise.all(closing.map((p) => p.close()));
  await Promise.all(openTargets.splice(0).map((t) => t.close(10)));
  const [failure] = closing.flatMap((p) => p.core.observerFailures);
  if (failure) throw failure;
}

/** POSTs JSON on a fast real clock. */
export function post(url: string, body: unknown) {
  return postJson({
    url,
    body: JSON.stringify(body),
    timeoutMs: 100_000,
    clock: createClock({ timeScale: 0.01 }),
  });
}

/** A URL nothing listens on: a server is started, its port noted, and it is closed. */
export async function deadUrl(): Promise<string> {
  const { target } = await startTarget();
  const url = target.url;
  await target.close(0);
  return url;
}
