import { createClock } from '../clock.js';
import { tlsProblem } from '../http/client.js';
import { SvcError } from '../errors.js';
import {
  EventStreamStatusError,
  openEventStream,
  type EventStreamReader,
} from '../http/event-stream.js';
import {
  REAL_TIME_TOLERANCE_MS,
  type AgentVerdict,
  type Observation,
  type Party,
  type World,
  type WorldOptions,
} from './world.js';

/**
 * `replay --platform-url`: the conversation runs against a running svc simulator
 * (`svc-cli platform`) instead of the embedded one. Discovery via `GET /_sim/state`, agent,
 * agents and close steps via the control API, `event` expectations from `GET /_sim/events`
 * (server-sent events). The simulator talks to whatever integrator, bot and hook URLs it was
 * started with, so integrator / bot / hook expectations are skipped with the reason. Real
 * time, scaled with --time-scale (run both sides with the same scale).
 */
type Json = Record<string, unknown>;

const ROLE_SKIP =
  'skipped: with --platform-url the simulator talks to its own integrator, bot and hook URLs; only customer, agent, control steps and simulator events are checked';

/** Fails like an unreachable peer (exit 3) or a non-svc platform (exit 2). */
function unreachable(url: string, reason: string, cause?: unknown): SvcError {
  const tls = cause === undefined ? undefined : tlsProblem(cause);
  if (tls !== undefined)
    return new SvcError(
      tls.reason === 'tls' ? 'SVC_E_TLS' : 'SVC_E_UNTRUSTED_CERT',
      `Could not replay against ${url}: ${tls.message}.`,
    );
  let port = '8800';
  try {
    port = new URL(url).port || port;
  } catch {
    // keep the default in the hint
  }
  return new SvcError(
    'SVC_E_PEER_UNREACHABLE',
    `Could not replay against ${url}: ${reason}.`,
    `Start it with \`svc-cli platform --port ${port}\` and pass --platform-url ${url}.`,
  );
}

async function requestJson(
  url: string,
  init: { method?: string; body?: unknown; token?: string | undefined } = {},
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, json };
}

/** Reads `GET <url>/_sim/events` into observations until `signal` aborts; resolves once open. */
async function subscribeEvents(
  base: string,
  observations: Observation[],
  signal: AbortSignal,
  token: string | undefined,
): Promise<void> {
  let read: EventStreamReader;
  // the event stream takes its token in the query, as a browser's EventSource must send it
  const auth = token === undefined ? '' : `&token=${encodeURIComponent(token)}`;
  try {
    read = await openEventStream(`${base}/_sim/events?plain=1${auth}`, signal);
  } catch (error) {
    if (error instanceof EventStreamStatusError)
      throw unreachable(base, `GET /_sim/events answered HTTP ${error.status}`);
    throw error;
  }
  void read((data) => {
    try {
      observations.push({ party: 'event', value: JSON.parse(data), consumed: false });
    } catch {
      // not an event
    }
  }).catch(() => undefined); // aborted at close
}

/**
 * The time scale a running svc simulator reports (`GET /_sim/state`), or undefined when it
 * cannot be read (the conversations then fail on their own, saying why): a replay whose clock
 * runs at another scale waits for the simulator's timers (redelivery, the bot budget) at the
 * wrong moments.
 * @example await remoteTimeScale('http://127.0.0.1:8800') // 0.1
 */
export async function remoteTimeScale(
  platformUrl: string,
  controlToken?: string,
): Promise<number | undefined> {
  try {
    const state = await requestJson(`${platformUrl.replace(/\/+$/, '')}/_sim/state`, {
      token: controlToken,
    });
    const scale = (state.json as { timeScale?: unknown } | undefined)?.timeScale;
    return state.status === 200 && typeof scale === 'number' ? scale : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connects to a running svc simulator.
 * @example const world = await createRemoteWorld({ conversation, platformUrl: 'http://127.0.0.1:8800' });
 */
export async function createRemoteWorld(
  options: WorldOptions & { platformUrl: string },
): Promise<World> {
  const base = options.platformUrl.replace(/\/+$/, '');
  const clock = createClock({ timeScale: options.timeScale ?? 1 });
  let state: { status: number; json: unknown };
  try {
    state = await requestJson(`${base}/_sim/state`, { token: options.controlToken });
  } catch (error) {
    throw unreachable(base, (error as Error).message, error);
  }
  const described = state.json as {
    channels?: Array<{ id: string; url: string; integratorUrl?: string }>;
    agentsOnline?: boolean;
  };
  const channels = described.channels;
  if (state.status === 401)
    throw new SvcError(
      'SVC_E_NOT_SVC_PLATFORM',
      `Could not replay against ${base}: its control API wants ${options.controlToken === undefined ? 'a' : 'another'} control token (HTTP 401).`,
      'Pass --control-token with the token its banner printed (or set SVC_CONTROL_TOKEN).',
    );
  if (state.status !== 200 || !Array.isArray(channels))
    throw new SvcError(
      'SVC_E_NOT_SVC_PLATFORM',
      `Could not replay against ${base}: GET /_sim/state answered HTTP ${state.status} without channels; --platform-url takes an svc simulator (svc-cli platform).`,
    );
  const wanted = options.conversation.setup?.channel?.id;
  const channel = channels.find((c) => c.id === wanted) ?? channels[0];
  if (!channel) throw new SvcError('SVC_E_NO_CHANNEL', `Could not replay: ${base} has no channel.`);
  const observations: Observation[] = [];
  const stop = new AbortController();
  await subscribeEvents(base, observations, stop.signal, options.controlToken);
  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const answer = await requestJson(`${base}${path}`, {
      token: options.controlToken,
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { body }),
    });
    if (answer.status >= 300)
      throw new Error(
        `${body === undefined ? 'GET' : 'POST'} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.json)}`,
      );
    return answer.json;
  };
  const setup = options.conversation.setup ?? {};
  const notApplicable = notApplicableOf(options.conversation, channel);
  if (notApplicable !== undefined) {
    stop.abort();
    return {
      clock,
      observations,
      channelUrl: channel.url,
      controlBase: base,
      notApplicable,
      unobservable: () => undefined,
      sendAgent: () => Promise.resolve(undefined),
      setAgents: () => Promise.resolve(),
      closeChat: () => Promise.reject(new Error('not applicable')),
      close: () => Promise.resolve(),
    };
  }
  // restore what a conversation changed: the simulator is shared with the next one
  const agentsAtStart = described.agentsOnline;
  let agentsChanged = false;
  const agents = setup.agents;
  if (agents) {
    await control('/_sim/agents', { online: agents === 'online' });
    agentsChanged = true;
  }
  return {
    clock,
    observations,
    channelUrl: channel.url,
    controlBase: base,
    // real time: a redelivery series is late by a few ms of scheduling
    timingToleranceMs: REAL_TIME_TOLERANCE_MS,
    unobservable: (party: Party) =>
      party === 'event' ? undefined : { reason: ROLE_SKIP, skip: true },
    async sendAgent(input) {
      const body = {
        ...(input.to ? { customerId: input.to } : {}),
        channelId: channel.id,
        message: input.message,
        wait: input.wait,
      };
      const result = (await control('/_sim/agent/message', body)) as Json;
      return input.wait ? (result as unknown as AgentVerdict) : undefined;
    },
    async setAgents(online) {
      await control('/_sim/agents', { online });
      agentsChanged = true;
    },
    async closeChat(customer) {
      const { chats } = (await control('/_sim/chats')) as {
        chats: Array<{ id: number; mode: string; lastActivityMs: number; customer?: Json }>;
      };
      const open = chats
        .filter((c) => c.mode !== 'closed' && (!customer || c.customer?.senderId === customer))
        .sort((a, b) => b.lastActivityMs - a.lastActivityMs)[0];
      if (!open) throw new Error(`no open chat${customer ? ` of customer ${customer}` : ''}`);
      await control(`/_sim/chats/${open.id}/close`, {});
      return { chatId: open.id };
    },
    async close() {
      stop.abort();
      if (agentsChanged && agentsAtStart !== undefined) {
        await control('/_sim/agents', { online: agentsAtStart }).catch(() => undefined);
      }
    },
  };
}

/**
 * Why a conversation is skipped on a running simulator: a setup it cannot apply, page steps
 * (the embedded simulator's widget channel and journal), or agent steps it has no integrator
 * for; undefined when it runs.
 */
function notApplicableOf(
  conversation: WorldOptions['conversation'],
  channel: { id: string; integratorUrl?: string | undefined },
): string | undefined {
  const setup = conversation.setup ?? {};
  const ignored = (['integrator', 'bot', 'hooks', 'strict', 'channel'] as const).filter(
    (key) =>
      setup[key] !== undefined && (key !== 'channel' || setup.channel?.chunked !== undefined),
  );
  if (setup.page !== undefined || conversation.steps.some((step) => 'page' in step))
    return "its page steps attach the page-script double to the embedded simulator's widget channel and read its journal (the callback-order invariant); replay it without --platform-url";
  if (ignored.length > 0)
    return `setup.${ignored.join(', setup.')} cannot be applied to a running simulator (it runs as it was started); replay it without --platform-url`;
  const needsIntegrator = conversation.steps.some((step) => 'agent' in step);
  if (needsIntegrator && !channel.integratorUrl && channel.id !== 'widget')
    return `its agent steps need an integrator: the simulator's channel ${channel.id} has no integrator URL (start it with --integrator-url, e.g. svc-cli listen's URL)`;
  return undefined;
}
