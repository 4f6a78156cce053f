import { createVirtualClock } from '../../src/clock.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import {
  createBotProvider,
  type BotProvider,
  type BotProviderOptions,
  type BotSimEvent,
} from '../../src/roles/bot/index.js';
import { collectEvents } from './bot.js';
import { closeListeners, startListener } from './listener.js';

const open: Array<{ platform: Platform; bot: BotProvider }> = [];

export async function closeBotSims(): Promise<void> {
  for (const { platform, bot } of open.splice(0)) {
    await bot.close(10);
    await platform.close();
  }
  await closeListeners();
}

/** bot-sim and the platform in one process, wired both ways, with a listener as the integrator. */
export async function startBotSim(
  options: Partial<BotProviderOptions> & { agentsOnline?: boolean; platformAuth?: boolean } = {},
) {
  const botEvents: BotSimEvent[] = [];
  const waiters: Array<{ pred: (e: BotSimEvent) => boolean; resolve: (e: BotSimEvent) => void }> =
    [];
  const { agentsOnline, platformAuth, ...botOptions } = options;
  // protocol time stands still (nothing here waits on a timer): the 3 s bot timeout cannot run
  // out while a busy machine delivers an event, as it did at 1/10 (300 ms of wall time)
  const clock = createVirtualClock();
  const bot = await createBotProvider({
    token: 'sim-token',
    providerId: 'acme',
    clock,
    ...botOptions,
    onEvent: (event) => {
      botEvents.push(event);
      for (const w of [...waiters])
        if (w.pred(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
    },
  });
  const harness = await startListener();
  const platform = createPlatform({
    clock,
    agentsOnline: agentsOnline ?? true,
    channels: [{ id: 'shop', integratorUrl: harness.listener.url }],
    bot: {
      providerUrl: bot.url,
      token: 'sim-token',
      providerId: 'acme',
      // --bot-events docs on both sides
      ...(botOptions.botEvents ? { botEvents: botOptions.botEvents } : {}),
      ...(platformAuth
        ? {
            auth: {
              clientId: 'acme-client',
              clientSecret: 's3cret',
              tokenUrl: `${bot.url}/oauth/token`,
            },
          }
        : {}),
    },
  });
  open.push({ platform, bot });
  const events = collectEvents(platform.core);
  const server = await platform.listen({ port: 0 });
  bot.setPlatformUrl(server.url);
  const channelUrl = platform.core.channelInfo(platform.core.state.channels.get('shop')!).url;
  return {
    clock,
    bot,
    platform,
    harness,
    events,
    botEvents,
    channelUrl,
    server,
    waitForBot<T extends BotSimEvent['type']>(
      type: T,
      pred: (e: Extract<BotSimEvent, { type: T }>) => boolean = () => true,
    ): Promise<Extract<BotSimEvent, { type: T }>> {
      const match = (e: BotSimEvent) =>
        e.type === type && pred(e as Extract<BotSimEvent, { type: T }>);
      const past = botEvents.find(match);
      if (past) return Promise.resolve(past as Extract<BotSimEvent, { type: T }>);
      const next = new Promise<Extract<BotSimEvent, { type: T }>>((resolve) =>
        waiters.push({ pred: match, resolve: resolve as (e: BotSimEvent) => void }),
      );
      // a redelivery waits on a timer: move to it once nothing is in flight
      void clock.runUntil(() => botEvents.some(match), 60_000);
      return next;
    },
  };
}
