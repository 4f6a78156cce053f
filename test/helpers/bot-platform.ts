import { createVirtualClock, type VirtualClock } from '../../src/clock.js';
import {
  createPlatform,
  type BotServiceOptions,
  type Platform,
  type PlatformOptions,
} from '../../src/platform/index.js';
import {
  closeFakeProviders,
  collectEvents,
  startFakeProvider,
  type ProviderReply,
  type ProviderHit,
} from './bot.js';
import { closeListeners, startListener } from './listener.js';

const platforms: Platform[] = [];
/** platforms whose listeners were checked by default: a listener that decided fails the test */
const guarded = new Set<Platform>();
export async function closeBotPlatforms(): Promise<void> {
  const closing = platforms.splice(0);
  await Promise.all(closing.map((p) => p.close()));
  await closeListeners();
  await closeFakeProviders();
  const failures = closing.filter((p) => guarded.delete(p)).flatMap((p) => p.core.observerFailures);
  // events observe, lifecycle hooks decide: every bot test checks it (checkObservers)
  const [first] = failures;
  if (first) throw first;
}

export interface Setup {
  clock?: VirtualClock;
  reply?: (hit: ProviderHit, n: number) => ProviderReply;
  agentsOnline?: boolean;
  /** bot options, or a function of the fake provider's URL (for a token URL on it) */
  bot?: Partial<BotServiceOptions> | ((providerUrl: string) => Partial<BotServiceOptions>);
  /**
   * more platform options: hooks beside the bot; the observer check (default on: closing
   * fails on a listener that changed a chat, unless the test set it itself)
   */
  platform?: Pick<PlatformOptions, 'hooks' | 'checkObservers'>;
}

/** A platform with a bot attached to channel `shop`, a fake provider and a listener. */
export async function startBotPlatform(setup: Setup = {}) {
  const provider = await startFakeProvider(setup.reply);
  const harness = await startListener();
  // a virtual clock: no attempt times out unless a test moves time on
  const clock = setup.clock ?? createVirtualClock();
  const platform = createPlatform({
    ...setup.platform,
    checkObservers: setup.platform?.checkObservers ?? true,
    clock,
    agentsOnline: setup.agentsOnline ?? true,
    channels: [{ id: 'shop', integratorUrl: harness.listener.url }],
    bot: {
      providerUrl: provider.url,
      token: 'bot-token-1',
      providerId: 'acme',
      ...(typeof setup.bot === 'function' ? setup.bot(provider.url) : setup.bot),
    },
  });
  platforms.push(platform);
  if (setup.platform?.checkObservers === undefined) guarded.add(platform);
  const events = collectEvents(platform.core);
  const server = await platform.listen({ port: 0 });
  const channel = platform.core.channelInfo(platform.core.state.channels.get('shop')!);
  const webhook = `${server.url}/webhooks/acme/bot-token-1`;
  return { platform, clock, provider, harness, events, server, channelUrl: channel.url, webhook };
}
