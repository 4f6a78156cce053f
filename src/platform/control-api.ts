import { z } from 'zod';
import { SvcError } from '../errors.js';
import { closeChat, sendAgentMessage, setAgentsOnline, startAgentMessage } from './agent.js';
import type { PlatformCore } from './core.js';
import { resendExchange } from './journal-resend.js';
import type { PlatformEvent } from './events.js';
import type { NumberedEvent } from './event-history.js';
import type { PlatformRequest, PlatformResponse, PlatformService } from './types.js';
import type { Route } from './router.js';
import { chatIdOfPath, controlOk, controlTarget, parseControlBody } from './control-kit.js';
import { compact } from '../compact.js';
import {
  faultPlanBodySchema,
  faultPlanText,
  isEmptyPlan,
  switchFaults,
  type FaultPlan,
  type FaultPlanText,
} from '../faults/index.js';

const target = controlTarget;
const messageBody = z.object({
  ...target,
  text: z.string().optional(),
  message: z.looseObject({ type: z.string() }).optional(),
  agentId: z.number().int().optional(),
  /** wait for the delivery verdict (default true) */
  wait: z.boolean().optional(),
});
const typingBody = z.object({ ...target, typing: z.boolean() });
const agentsBody = z.object({ online: z.boolean() });
const integratorUrlBody = z.object({
  channelId: z.string().min(1).optional(),
  /** null: no integrator URL (agent messages are not delivered) */
  url: z.url({ protocol: /^https?$/ }).nullable(),
});

/**
 * The simulator's control API under /_sim/ (README "Control API"): drives the agent side
 * and reads the state, for tests and other tools.
 */
export function createControlApi(
  core: PlatformCore,
  options: { botToken?: string | undefined } = {},
): PlatformService {
  return {
    name: 'control',
    routes: controlRoutes(core, options.botToken),
  };
}

/**
 * Back-pressure: agent messages queue for delivery, as on the real platform; once
 * the queue holds `maxWaitingSeries` the control API refuses more with 503 until it drains.
 */
function refuseWhenBacklogged(core: PlatformCore): void {
  if (!core.limiter.backlogFull) return;
  throw new SvcError(
    'SVC_E_OVERLOADED',
    `the delivery queue is full (${core.limiter.waitingSeries} agent messages waiting); retry when it drains`,
  );
}

/** The routes of the control API; an input error becomes its status in the core. */
function controlRoutes(core: PlatformCore, botToken: string | undefined): Route[] {
  return [
    ...stateRoutes(core),
    ...agentRoutes(core),
    ...faultRoutes(core),
    {
      method: 'GET',
      path: '/_sim/journal',
      handler(request) {
        const since = Number(request.query.get('since') ?? 0) || 0; // NaN: from the start
        const limit = Math.min(Number(request.query.get('limit') ?? 1000), 10_000);
        return controlOk({
          count: core.journal.count,
          // the --record file: recording, stopped by a failed write (and why), or off
          recording: core.journal.recording,
          entries: core.journal.entries(since).slice(0, limit),
        });
      },
    },
    {
      method: 'POST',
      path: '/_sim/journal/:id/resend',
      handler: async (req, p) =>
        controlOk(
          await resendExchange(core, Number(p.id), {
            ...authOf(req),
            ...(botToken === undefined ? {} : { botToken }),
          }),
        ),
    },
    { method: 'GET', path: '/_sim/events', handler: (request) => eventStream(core, request) },
  ];
}

/** What the state and the chats are; closing a chat as its agent would. */
function stateRoutes(core: PlatformCore): Route[] {
  return [
    { method: 'GET', path: '/_sim/state', handler: () => controlOk(describeState(core)) },
    {
      method: 'GET',
      path: '/_sim/chats',
      handler: () =>
        controlOk({
          chats: [...core.state.chats.values()].map((c) => describeChat(core, c.id)),
        }),
    },
    {
      method: 'GET',
      path: '/_sim/chats/:id',
      handler: (_request, params) => controlOk(describeChat(core, chatIdOfPath(params))),
    },
    {
      method: 'POST',
      path: '/_sim/chats/:id/close',
      handler(_request, params) {
        const chatId = chatIdOfPath(params);
        closeChat(core, { chatId });
        return controlOk(describeChat(core, chatId));
      },
    },
  ];
}

/** The agent side: messages, typing, agents online, where the channel delivers. */
function agentRoutes(core: PlatformCore): Route[] {
  return [
    { method: 'POST', path: '/_sim/agent/message', handler: (r) => agentMessage(core, r) },
    {
      method: 'POST',
      path: '/_sim/agent/typing',
      async handler(request) {
        refuseWhenBacklogged(core);
        const body = parseControlBody(typingBody, request);
        const result = await sendAgentMessage(core, {
          ...pick(body),
          message: { type: body.typing ? 'typein' : 'typeout' },
        });
        return controlOk(result);
      },
    },
    {
      method: 'POST',
      path: '/_sim/agents',
      handler(request) {
        const body = parseControlBody(agentsBody, request);
        setAgentsOnline(core, body.online);
        return controlOk({ online: core.state.agentsOnline });
      },
    },
    {
      // where the channel delivers agent messages (spec 1.3 setup screen; `conform platform`)
      method: 'POST',
      path: '/_sim/channels/integrator-url',
      handler(request) {
        const body = parseControlBody(integratorUrlBody, request);
        const channel = body.channelId
          ? core.state.channels.get(body.channelId)
          : [...core.state.channels.values()][0];
        if (!channel)
          throw new SvcError('SVC_E_NO_CHANNEL', `Could not find channel ${body.channelId}.`);
        if (body.url === null) delete channel.integratorUrl;
        else channel.integratorUrl = body.url.replace(/\/+$/, '');
        return controlOk(core.channelInfo(channel));
      },
    },
  ];
}

/** The plan as the control API answers it (a plan file's syntax); null: no plan in force. */
const planText = (plan: FaultPlan | undefined): FaultPlanText | null =>
  plan === undefined || isEmptyPlan(plan) ? null : faultPlanText(plan);

/**
 * The fault plan on the interfaces (src/platform/faults.ts), switched while serving as
 * WireMock's admin API does: read, replaced (a plan file's fields, `version` optional; attempt
 * counts start again; `{}` is no plan) or cleared; an answer names the plan in force and the
 * one before. The control API itself is never faulted.
 */
function faultRoutes(core: PlatformCore): Route[] {
  const answer = (before: FaultPlan | undefined): PlatformResponse =>
    controlOk({ plan: planText(core.faults.injector?.plan), before: planText(before) });
  return [
    {
      method: 'GET',
      path: '/_sim/faults',
      handler: () => controlOk({ plan: planText(core.faults.injector?.plan) }),
    },
    {
      method: 'PUT',
      path: '/_sim/faults',
      handler: (request) =>
        answer(switchFaults(core.faults, parseControlBody(faultPlanBodySchema, request))),
    },
    {
      method: 'DELETE',
      path: '/_sim/faults',
      handler: () => answer(switchFaults(core.faults, undefined)),
    },
  ];
}

/** POST /_sim/agent/message: an agent's message, answered with its delivery or at once (202). */
async function agentMessage(
  core: PlatformCore,
  request: PlatformRequest,
): Promise<PlatformResponse> {
  refuseWhenBacklogged(core);
  const body = parseControlBody(messageBody, request);
  const message =
    body.message ?? (body.text !== undefined ? { type: 'text', text: body.text } : undefined);
  if (!message) throw new SvcError('SVC_E_CONTROL_BODY', 'give "text" or "message"');
  // a refusal (no such chat, a closed one, a message the contract refuses) answers now,
  // "wait": false included: a 202 says the delivery runs
  const sending = startAgentMessage(core, {
    ...pick(body),
    message: message as Parameters<typeof sendAgentMessage>[1]['message'],
    ...(body.agentId === undefined ? {} : { agentId: body.agentId }),
  });
  if (body.wait === false) {
    sending.delivered.catch(() => undefined);
    return controlOk(
      { accepted: true, chatId: sending.chatId, deliveryId: sending.deliveryId },
      202,
    );
  }
  return controlOk(await sending.delivered);
}

/** GET /_sim/events: the platform's events as server-sent events, numbered when kept. */
function eventStream(core: PlatformCore, request: PlatformRequest): PlatformResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    stream(write, onClose) {
      write(': svc-cli events\n\n');
      // ?plain=1: unnamed messages, so EventSource.onmessage sees every type, even new ones
      const named = request.query.get('plain') === null;
      const history = core.history;
      if (!history) {
        const off = core.on((event: PlatformEvent) => {
          const name = named ? `event: ${event.type}\n` : '';
          write(`${name}data: ${JSON.stringify(event)}\n\n`);
        });
        onClose(off);
        return;
      }
      // numbered (`id:`): an EventSource that reconnects sends Last-Event-ID and gets what
      // it missed; ?history=1 sends the kept events first (a page opened late, a reload)
      const send = (event: NumberedEvent): void => {
        const name = named ? `event: ${event.type}\n` : '';
        write(`id: ${event.seq}\n${name}data: ${event.text}\n\n`);
      };
      const since = replayFrom(request.headers['last-event-id'], request.query.get('history'));
      if (since !== undefined) for (const event of history.after(since)) send(event);
      onClose(history.follow(send));
    },
  };
}

/**
 * The kept events a new event stream starts with: those after a reconnecting EventSource's
 * Last-Event-ID, all of them with `?history=1`, else none (undefined).
 */
export function replayFrom(
  lastEventId: string | undefined,
  history: string | null,
): number | undefined {
  if (lastEventId !== undefined && /^\d+$/.test(lastEventId)) return Number(lastEventId);
  return history === '1' ? 0 : undefined;
}

function pick(body: {
  chatId?: number | undefined;
  customerId?: string | undefined;
  channelId?: string | undefined;
}): { chatId?: number; customerId?: string; channelId?: string } {
  return {
    ...compact({ chatId: body.chatId, customerId: body.customerId, channelId: body.channelId }),
  };
}

export function describeState(core: PlatformCore): unknown {
  return {
    baseUrl: core.baseUrl,
    agentsOnline: core.state.agentsOnline,
    agents: core.state.agents,
    channels: [...core.state.channels.values()].map((c) => core.channelInfo(c)),
    chats: core.state.chats.size,
    customers: core.state.customers.size,
    // a load tool reads the cap: more customers than it churns their chats (null: no limit)
    chatLimits: {
      maxChats: core.chatLimits.maxChats ?? null,
      idleTimeoutMs: core.chatLimits.idleTimeoutMs ?? null,
    },
    journal: core.journal.count,
    recording: core.journal.recording,
    protocolMs: core.clock.now(),
    /** whether the agent web console is served (`--web`): `widget --platform-url` asks */
    console: core.service('console') !== undefined,
    /** protocol ms per wall ms, inverted (`--time-scale`); 0 on the virtual clock */
    timeScale: core.clock.timeScale,
    /** resident memory of the simulator process, for load checks */
    rssBytes: process.memoryUsage.rss(),
    /** the JS heap: in use, and what V8 holds for it (RSS minus this is headroom) */
    heap: heapOf(),
  };
}

function heapOf(): { usedBytes: number; totalBytes: number } {
  const { heapUsed, heapTotal } = process.memoryUsage();
  return { usedBytes: heapUsed, totalBytes: heapTotal };
}

export function describeChat(core: PlatformCore, chatId: number): unknown {
  const chat = core.state.chats.get(chatId);
  if (!chat) throw new SvcError('SVC_E_NO_CHAT', `Could not find chat ${chatId}.`);
  const customer = core.state.customers.get(chat.customerKey);
  return { ...chat, customer };
}

/**
 * The control guard accepted this request's token: a resent control request carries it, as
 * the journal holds the one it recorded only as `Bearer ***`.
 */
function authOf(request: { headers: Record<string, string | undefined> }): {
  controlAuthorization?: string;
} {
  const given = request.headers.authorization;
  return given === undefined ? {} : { controlAuthorization: given };
}
