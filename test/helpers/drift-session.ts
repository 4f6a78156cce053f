import { botOptions } from '../../src/cli/commands/platform-bot.js';
import { createVirtualClock } from '../../src/clock.js';
import type { SimulatorSettings } from '../../src/conversation/record/profile.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { postJson } from '../../src/http/client.js';
import { BOT_DELIVERY_POLICY, type DeliveryPolicy } from '../../src/platform/delivery.js';
import type { PayloadForms } from '../../src/platform/payload-forms.js';
import { createJournal } from '../../src/journal/journal.js';
import {
  createPlatform,
  sendAgentMessage,
  type BotServiceOptions,
  type PlatformEvent,
} from '../../src/platform/index.js';
import { createListener } from '../../src/roles/integrator/index.js';
import { closeFakeProviders, startFakeProvider } from './bot.js';

export interface DriftSessionOptions {
  /** the platform's bot options over the defaults (policy, botEvents) */
  bot?: Partial<BotServiceOptions>;
  /** the integrator's answers to the agent's messages, in order (default: all accepted) */
  integrator?: FaultPlan['sequence'];
  /** the platform's channel delivery policy (default: the spec's) */
  channelPolicy?: DeliveryPolicy;
  /** the payload forms a profile asks for (default: the spec's) */
  forms?: PayloadForms;
}

/** the agent's first message is refused to the end: the channel's schedule shows in full */
export const refusing: DriftSessionOptions['integrator'] = [
  { kind: 'status', status: 503 },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 503 },
];

/** the simulator under a profile's settings, set up as platform --profile does (platform-run.ts) */
export function underProfile(settings: SimulatorSettings): DriftSessionOptions {
  const bot = botOptions(
    {
      botProviderUrl: 'http://127.0.0.1:9/bot',
      botToken: 't',
      providerId: 'acme',
      botRateLimit: '100/1s',
      botName: 'Bot',
      botAttempts: BOT_DELIVERY_POLICY.attempts,
      botEvents: 'spec',
    },
    settings,
  );
  return {
    integrator: refusing,
    channelPolicy: settings.channelPolicy,
    ...(settings.forms ? { forms: settings.forms } : {}),
    bot: {
      ...(bot?.policy ? { policy: bot.policy } : {}),
      ...(bot?.botEvents ? { botEvents: bot.botEvents } : {}),
    },
  };
}

/**
 * Records one conversation on a virtual clock: a customer writes, the bot stays silent until
 * the platform hands over, an agent answers twice (the integrator's answers as given).
 * The same steps under other settings make recordings that differ only where they do.
 */
export async function recordDriftSession(
  file: string,
  options: DriftSessionOptions = {},
): Promise<void> {
  const clock = createVirtualClock();
  const provider = await startFakeProvider((hit) =>
    hit.json?.event === 'CLIENT_MESSAGE' ? 'hang' : 200,
  );
  const listener = await createListener({
    clock,
    plan: { sequence: options.integrator ?? [] },
  });
  const journal = createJournal({ file });
  const platform = createPlatform({
    clock,
    journal,
    agentsOnline: true,
    channels: [{ id: 'shop', integratorUrl: listener.url }],
    ...(options.channelPolicy ? { channelPolicy: options.channelPolicy } : {}),
    ...(options.forms ? { forms: options.forms } : {}),
    bot: {
      providerUrl: provider.url,
      token: 'bot-token-1',
      providerId: 'acme',
      ...options.bot,
    },
  });
  const events: PlatformEvent[] = [];
  platform.core.on((event) => events.push(event));
  try {
    await platform.listen({ port: 0 });
    const url = platform.core.channelInfo(platform.core.state.channels.get('shop')!).url;
    const sent = postJson({
      url,
      body: JSON.stringify({
        sender: { id: 'c-42', name: 'Jane' },
        message: { type: 'text', text: 'anyone there?' },
      }),
      timeoutMs: 5000,
      clock,
    });
    await clock.runUntil(() => events.some((e) => e.type === 'bot-handover'), 60_000);
    await sent;
    for (const text of ['Hello, Anna here.', 'How can I help?']) {
      let done = false;
      const sending = sendAgentMessage(platform.core, {
        customerId: 'c-42',
        message: { type: 'text', text },
      }).finally(() => (done = true));
      await clock.runUntil(() => done, 60_000);
      await sending;
    }
    await clock.settle();
  } finally {
    await platform.close();
    journal.close();
    await listener.close(10);
    await closeFakeProviders();
  }
}
