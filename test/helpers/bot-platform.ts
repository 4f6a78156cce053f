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
export async function closeBotPlatforms(): Promise<void> {
  await Promise.all(platforms.splice(0).map((p) => p.close()));
  await closeListeners();
  await closeFakeProviders();
}

export interface Setup {
  clock?: VirtualClock;
  reply?: (hit: ProviderHit, n: number) => ProviderReply;
  agentsOnline?: boolean;
  /** bot options, or a function of the fake provider's URL (for a token URL on it) */
  bot?: Partial<BotServiceOptions> | ((providerUrl: string) => Partial<BotServiceOptions>);
  /** more platform options: hooks beside the bot, the observer check */
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
  const events = collectEvents(platform.core);
  const server = await platform.listen({ port: 0 });
  const channel = platform.core.channelInfo(platform.core.state.channels.get('shop')!);
  const webhook = `${server.url}/webhooks/acme/bot-token-1`;
  return { platform, clock, provider, harness, events, server, channelUrl: channel.url, webhook };
}
