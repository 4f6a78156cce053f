import { createPlatformCore, type PlatformCore, type PlatformCoreOptions } from './core.js';
import { createChannelService } from './channel/channel-service.js';
import { createControlApi } from './control-api.js';
import {
  mountPlatform,
  platformFetch,
  servePlatform,
  type ServePlatformOptions,
} from './http-adapter.js';
import type { RunningServer } from '../http/server.js';
import type { Mounted } from '../http/in-process.js';
import { createBotService, type BotServiceOptions } from './bot/bot-service.js';
import { createHookService, type HookServiceOptions } from './hooks/hook-service.js';
import { createHookControl } from './hooks/control.js';
import { createWidgetService } from './widget/service.js';
import type { PlatformService } from './types.js';
import { checkFaultPlan, switchFaults, type FaultPlanInput } from '../faults/index.js';

export interface PlatformOptions extends PlatformCoreOptions {
  /** attach a bot provider (interface B): the bot service is registered on the core */
  bot?: BotServiceOptions;
  /** send event hooks here (spec 4.4, 6.2); no hooks when absent */
  hooks?: HookServiceOptions;
  /**
   * more services on the same core: the agent web console (`platform --web`,
   * src/web/console-service.ts) is one
   */
  services?: PlatformService[];
  /**
   * request body limit in bytes of `fetch` and `mount()` (default 1 MiB: 413 beyond), and of
   * `listen()` unless its own options give one
   */
  bodyLimit?: number;
  /**
   * the fault plan on the platform's interfaces, as `platform --fault ...` (the same plan as
   * `listen --fault-plan`): the channel, the bot API and the widget channel's events answer
   * 503s, resets, hangs, slow bodies or delays; the control API (`/_sim/`) and the web console
   * never. One plan for `listen()`, `mount()` and `fetch` (attempts counted across them);
   * `setFaults` and `PUT /_sim/faults` replace it while serving.
   * @example createPlatform({ faults: { failFirst: 2, failWith: { kind: 'status', status: 503 } } })
   */
  faults?: FaultPlanInput | undefined;
}

export interface Platform {
  readonly core: PlatformCore;
  /** Binds the platform to a loopback port; the core's baseUrl is set from then on. */
  listen(options?: ServePlatformOptions): Promise<RunningServer>;
  /**
   * Serves the platform in process instead (src/http/in-process.ts): the core's
   * baseUrl is the mount's URL, reachable by `postJson` and the roles, not by a socket.
   */
  mount(): Mounted;
  /**
   * A Web standard Request answered by the platform's request pipeline, as hono's
   * `app.fetch`: the body within the limit, the journal, the core, without a socket (the
   * socket's control guard aside: the caller is this process). `core.request(path, init)`
   * is the core's routes alone: nothing journaled, no body limit.
   * @example const res = await platform.fetch(new Request(channelUrl, { method: 'POST', body }));
   */
  readonly fetch: (request: Request) => Promise<Response>;
  /**
   * Replaces the fault plan on the interfaces (attempt counts start again), as msw's
   * `setFaults` and `PUT /_sim/faults`; `{}` or undefined: no faults. Checked as
   * `createPlatform({ faults })` is: a typo is an input error naming the field.
   * @example platform.setFaults({ fault: 'status:503', rate: 0.5, seed: 7 });
   */
  setFaults(plan: FaultPlanInput | undefined): void;
  /**
   * Stops serving, gives in-flight deliveries `graceMs` (default 0) to end, interrupts the
   * rest (journaled as `interrupted`), flushes and closes the journal.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Registers every interface's service on a core: the socket path (`createPlatform`) and the
 * socket-less one (`svc-cli/msw`) serve the SAME services through `core.handle()`.
 * @example const core = createPlatformCore(); registerPlatformServices(core); await core.handle(request);
 */
export function registerPlatformServices(
  core: PlatformCore,
  options: Pick<PlatformOptions, 'bot' | 'hooks' | 'services'> = {},
): void {
  // the order does not matter: the most specific route answers (router.ts)
  core.use(createHookControl(core));
  core.use(createWidgetService(core)); // /_sim/widget/: the page script's channel (spec 4.5)
  for (const service of options.services ?? []) core.use(service);
  // the bot token the journal masks: a resent bot event goes to the provider with it again
  core.use(createControlApi(core, { botToken: options.bot?.token }));
  if (options.bot) core.use(createBotService(core, options.bot));
  if (options.hooks) core.use(createHookService(core, options.hooks));
  core.use(createChannelService(core));
}

/**
 * The platform simulator: one core with the channel service and the control API.
 * @example const platform = createPlatform({ channels: [{ integratorUrl }] }); await platform.listen({ port: 0 });
 */
export function createPlatform(options: PlatformOptions = {}): Platform {
  const core = createPlatformCore(options);
  registerPlatformServices(core, options);
  let server: RunningServer | Mounted | undefined;
  const bodyLimit = options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit };
  if (options.faults !== undefined)
    switchFaults(core.faults, checkFaultPlan(options.faults, 'createPlatform({ faults })'));
  const adapters = bodyLimit;
  const face = platformFetch(core, adapters);
  return {
    core,
    async listen(listenOptions) {
      const running = await servePlatform(core, { ...adapters, ...listenOptions });
      server = running;
      return running;
    },
    mount() {
      const mounted = mountPlatform(core, adapters);
      server = mounted;
      return mounted;
    },
    fetch: face.fetch,
    setFaults(plan) {
      switchFaults(core.faults, plan === undefined ? undefined : checkFaultPlan(plan, 'setFaults'));
    },
    async close(graceMs = 0) {
      face.close();
      const closing = server?.close(Math.max(500, graceMs));
      await core.stop(graceMs);
      await closing;
      core.journal.close();
    },
  };
}

export {
  createPlatformCore,
  type PlatformCore,
  type PlatformCoreOptions,
  type ChannelConfig,
} from './core.js';
export {
  sendAgentMessage,
  setAgentsOnline,
  closeChat,
  findChat,
  acceptChat,
  type AgentMessageInput,
  type SendAgentMessageOptions,
  type AgentMessageResult,
} from './agent.js';
export {
  deliver,
  judgeChannelReply,
  CHANNEL_DELIVERY_POLICY,
  BOT_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  type DeliveryPolicy,
  type DeliveryResult,
  type ReplyJudgement,
} from './delivery.js';
export { cutText, TEXT_CUT_LIMIT } from './channel/channel-service.js';
export type {
  PlatformEvent,
  ChannelInfo,
  DeliveryAttemptEvent,
  DeliveryDoneEvent,
  DeliveryTarget,
} from './events.js';
export type { PlatformRequest, PlatformResponse, PlatformService } from './types.js';
export type {
  LifecycleHooks,
  MomentEvent,
  ObservedEvent,
  ObserverView,
  PlatformListener,
  ReadonlyPlatformState,
} from './lifecycle-hooks.js';
export type { Channel, Chat, Customer, Agent, PlatformState } from './model.js';
export { servePlatform, type ServePlatformOptions } from './http-adapter.js';
export { createBotService, type BotServiceOptions } from './bot/bot-service.js';
export type { BotAuthOptions } from './bot/bot-outbound.js';
export { DEFAULT_BOT_RATE_LIMIT, parseRateLimit, type RateLimit } from './bot/bot-rate-limit.js';
export { deliverToCustomer, type CustomerSender } from './channel/customer-delivery.js';
export type { BotPlatformEvent } from './bot/bot-events.js';
export {
  createHookService,
  judgeHookReply,
  hookPolicyOf,
  type HookServiceOptions,
} from './hooks/hook-service.js';
export * from './hooks/index.js';
export { createWidgetService } from './widget/service.js';
export { resendExchange, type ResendResult } from './journal-resend.js';
export type {
  WidgetPlatformEvent,
  WidgetPushEvent,
  WidgetUpdateEvent,
  WidgetVisitorEvent,
} from './widget/events.js';
