/**
 * `svc-cli/msw`: msw request handlers that emulate the platform, backed by the same core and
 * services as `svc-cli platform`, so client code is unit-tested without a socket.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMswPlatform } from 'svc-cli/msw';
 * const sim = createMswPlatform({ baseUrl: 'https://platform.test' });
 * const server = setupServer(...sim.handlers);
 * server.listen();
 * await fetch(sim.channelUrl, { method: 'POST', body: JSON.stringify(payload) });
 * sim.received.length; // 1
 */
import { http, type HttpHandler } from 'msw';
import { SvcError } from '../errors.js';
import {
  checkFaultPlan,
  createFaultInjector,
  type FaultSwitch,
  type FaultPlanInput,
} from '../faults/index.js';
import { createJournal, type ExchangeRecord } from '../journal/index.js';
import {
  createPlatformCore,
  registerPlatformServices,
  sendAgentMessage,
  setAgentsOnline,
  type AgentMessageResult,
  type ChannelInfo,
  type PlatformCore,
  type PlatformOptions,
  type PlatformEvent,
  type SendAgentMessageOptions,
} from '../platform/index.js';
import { mswFaults, type MswFaultContext, type ReceivedRequest } from './faults.js';
import {
  BUILT_IN_PROFILES,
  coreOptionsOf,
  profileSchema,
  settingsOf,
  type Profile,
} from '../platform/profile.js';
import { platformRequestHead, readRequestBody } from '../platform/fetch-adapter.js';
import {
  handleWith,
  journalPlatform,
  respondOnWire,
  type PlatformContext,
} from '../platform/http-adapter.js';
import { serveFetch } from '../http/fetch-adapter.js';
import { DEFAULT_BODY_LIMIT } from '../http/body.js';
import { bodyStep, compose, type Next } from '../http/pipeline.js';
import { issueLine } from '../issue-words.js';

export interface MswPlatformOptions extends PlatformOptions {
  /** the platform's base URL as your client code knows it, e.g. https://platform.test */
  baseUrl: string;
  /**
   * faults applied to the answers: a plan as `listen --fault-plan` reads it, each fault in the
   * --fault syntax (`'status:503'`) or as an object (`{ kind: 'status', status: 503 }`)
   */
  faults?: FaultPlanInput;
  /**
   * request body limit in bytes, as `platform --body-limit` (default 1 MiB): a larger body is
   * answered 413 `body_too_large`, as over a socket
   */
  bodyLimit?: number;
  /**
   * the platform profile to follow, as `platform --profile` does: `spec` (default), `docs`,
   * or a profile object (a file `svc-cli record profile` wrote, read with JSON.parse): its
   * delivery policies, bot events and payload forms; options given here win over it
   */
  profile?: 'spec' | 'docs' | Profile;
  /**
   * append every exchange to this NDJSON file, as `platform --record` does (for
   * `svc-cli coverage`, `trace`, `mutate --coverage`); default the `SVC_RECORD` environment
   * variable, so a test suite records without a change: `SVC_RECORD=run.ndjson npx vitest run`
   */
  record?: string;
}

export type { ReceivedRequest } from './faults.js';

export interface MswPlatform {
  /** pass to setupServer / setupWorker */
  readonly handlers: HttpHandler[];
  /**
   * What the handlers answer a Request under the base URL, without msw in between (the same
   * pipeline: body limit, fault plan, journal, core), as the platform's `fetch`
   */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly core: PlatformCore;
  /** the first channel's URL: `{baseUrl}/<random_string>/<channel_public_id>` */
  readonly channelUrl: string;
  readonly statusUrl: string;
  readonly channels: ChannelInfo[];
  /** every request, oldest first */
  readonly received: ReceivedRequest[];
  /** every platform event (customer-message, violation, delivery-attempt ...), oldest first */
  readonly events: PlatformEvent[];
  /** the journal: request, response, verdict per exchange */
  journal(): readonly ExchangeRecord[];
  /** Replaces the fault plan (attempt counts start again). */
  setFaults(plan: FaultPlanInput): void;
  /** The agent answers a customer (delivered to the channel's integratorUrl, when set). */
  sendAgentMessage(options: SendAgentMessageOptions): Promise<AgentMessageResult>;
  setAgentsOnline(online: boolean): void;
  /** Forgets received requests and events (state and channels stay). */
  reset(): void;
  /** Ends hanging answers and in-flight deliveries. */
  close(): Promise<void>;
}

/**
 * Creates the handlers and the handle that tells what they received.
 * @example const sim = createMswPlatform({ baseUrl: 'https://platform.test', faults: { failFirst: 1 } });
 */
export function createMswPlatform(options: MswPlatformOptions): MswPlatform {
  const given = options as MswPlatformOptions | undefined;
  if (typeof given?.baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(given.baseUrl)) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not create the msw platform: baseUrl must be an absolute http(s) URL, got ${JSON.stringify(given?.baseUrl)}.`,
      "Example: createMswPlatform({ baseUrl: 'https://platform.test' })",
    );
  }
  const { baseUrl: rawBase, faults, profile, record, bodyLimit, ...explicit } = options;
  const coreOptions = profile === undefined ? explicit : withProfile(explicit, profile);
  const recordFile =
    record ?? (typeof process === 'undefined' ? undefined : process.env.SVC_RECORD);
  const ownJournal =
    recordFile && coreOptions.journal === undefined
      ? createJournal({ file: recordFile })
      : undefined;
  if (ownJournal) coreOptions.journal = ownJournal;
  const baseUrl = rawBase.replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const core = createPlatformCore(coreOptions);
  registerPlatformServices(core, coreOptions);
  core.baseUrl = baseUrl;
  const received: ReceivedRequest[] = [];
  const events: PlatformEvent[] = [];
  core.on((event) => events.push(event));
  // the core's plan, which `PUT /_sim/faults` through these handlers replaces too
  core.faults.injector = createFaultInjector(
    checkFaultPlan(faults ?? {}, 'createMswPlatform({ faults })'),
  );
  const run = mswPipeline(core.faults, received, bodyLimit ?? DEFAULT_BODY_LIMIT);
  // the platform's fetch face (src/http/fetch-adapter.ts): the wire its answer goes on
  const face = serveFetch((request, wire) =>
    run({
      method: request.method,
      started: core.clock.now(),
      wallStarted: core.clock.wallNow(),
      core,
      clock: core.clock,
      request: platformRequestHead(request, basePath),
      url: request.url,
      fetched: request,
      wire,
    }),
  );
  const resolve = face.fetch;

  const channels = (): ChannelInfo[] =>
    [...core.state.channels.values()].map((c) => core.channelInfo(c));
  const first = channels()[0];
  return {
    handlers: [http.all(`${baseUrl}/*`, ({ request }) => resolve(request))],
    fetch: resolve,
    core,
    channelUrl: first?.url ?? '',
    statusUrl: first?.statusUrl ?? '',
    get channels() {
      return channels();
    },
    received,
    events,
    journal: () => core.journal.entries(),
    setFaults(plan) {
      core.faults.injector = createFaultInjector(checkFaultPlan(plan, 'setFaults'));
    },
    sendAgentMessage: (input) => sendAgentMessage(core, input),
    setAgentsOnline: (online) => setAgentsOnline(core, online),
    reset() {
      received.length = 0;
      events.length = 0;
    },
    async close() {
      face.close(); // hanging answers end as network errors
      await core.stop();
      ownJournal?.close();
    },
  };
}

/** One request to the msw handlers on its way through the platform's pipeline. */
interface MswContext extends PlatformContext, MswFaultContext {
  request: PlatformContext['request'];
}

/**
 * The msw handlers' pipeline, composed once per platform: the body, the fault plan on the
 * answer (the one fault step with msw's adapter, `mswFaults`; a replaced answer is not
 * journaled), the platform's journal step, the core, its answer on the fetch face's wire. The
 * body is read within the same limit as over a socket, so a client sees the same 413.
 */
function mswPipeline(
  faulting: FaultSwitch,
  received: ReceivedRequest[],
  bodyLimit: number,
): Next<MswContext> {
  const noPlan = createFaultInjector(); // every request is listed in `received`, plan or none
  return compose<MswContext>(
    [
      bodyStep<MswContext>({
        limit: bodyLimit,
        wants: (ctx) => ctx.method !== 'GET' && ctx.method !== 'HEAD',
        read: (ctx, limit, then) => void readRequestBody(ctx.fetched, limit).then(then),
      }),
      mswFaults<MswContext>(() => faulting.injector ?? noPlan, received),
      journalPlatform<MswContext>('msw'),
    ],
    handleWith<MswContext>((ctx, answer) => {
      if (ctx.entry) ctx.entry.status = answer.status;
      respondOnWire(ctx, answer);
    }),
  );
}

/**
 * The core options under a profile: its policies, bot events and payload forms, under what
 * the caller gave explicitly. A profile object that is not one is refused with its path.
 */
function withProfile(
  given: PlatformOptions,
  profile: NonNullable<MswPlatformOptions['profile']>,
): PlatformOptions {
  let chosen: Profile;
  if (typeof profile === 'string') {
    const builtIn = (BUILT_IN_PROFILES as Record<string, Profile | undefined>)[profile];
    if (!builtIn)
      throw new SvcError(
        'SVC_E_OPTIONS',
        `Could not create the msw platform: profile ${JSON.stringify(profile)} is not known.`,
        "Give 'spec', 'docs' or a profile object (JSON.parse of a file `svc-cli record profile` wrote).",
      );
    chosen = builtIn;
  } else {
    const parsed = profileSchema.safeParse(profile);
    if (!parsed.success)
      throw new SvcError(
        'SVC_E_OPTIONS',
        `Could not create the msw platform: the profile is not one: ${parsed.error.issues
          .map((i) => issueLine(i))
          .join('; ')}.`,
      );
    chosen = parsed.data;
  }
  const settings = settingsOf(chosen);
  return {
    ...coreOptionsOf(settings),
    ...given,
    ...(given.bot
      ? {
          bot: {
            policy: settings.botPolicy,
            ...(settings.botEvents === 'docs' ? { botEvents: 'docs' as const } : {}),
            ...given.bot,
          },
        }
      : {}),
  };
}

export type { Profile } from '../platform/profile.js';
export type { FaultPlan, FaultPlanInput, Fault, FaultInput } from '../faults/index.js';
