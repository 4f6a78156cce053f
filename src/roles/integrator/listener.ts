import { createClock, type Clock } from '../../clock.js';
import { serveExchanges } from '../../http/exchange.js';
import { createRouter } from '../../http/router.js';
import { decodeSegment } from '../../http/server.js';
import { messageKeyOf } from '../../faults/index.js';
import {
  createInboundHandler,
  type InboundRole,
  type RoleAnswer,
  type RoleServerOptions,
  type ServingRole,
} from '../inbound.js';
import { checkKind, detectChannelKind } from './contract-check.js';
import type { ListenerEvent, ListeningEvent, RejectedRequestEvent } from './events.js';
import { kindOfChannelMessage, messageOf } from './kinds.js';
import { toRecordedVerdict, unknownKindVerdict } from './verdict.js';
import { errorText } from '../../errors.js';

export interface ListenerOptions extends RoleServerOptions {
  /** serve only this channel public id; any single path segment otherwise */
  channel?: string;
  /** contract warnings count as errors */
  strict?: boolean;
  onEvent?: (event: ListenerEvent) => void;
}

export type Listener = ServingRole<ListeningEvent>;

/** spec 2.2: the integrator's reply to a received agent message. */
const OK_REPLY = { result: 'ok' } as const;

/**
 * Starts the integrator's agent-message endpoint (spec 4.2): `POST /<channel_public_id>`,
 * validating each message and replying `{"result":"ok"}`, or as the fault plan says.
 * @example const l = await createListener({ plan: { failFirst: 2 }, onEvent: console.log }); // give l.url to the platform
 */
export async function createListener(options: ListenerOptions = {}): Promise<Listener> {
  const clock = options.clock ?? createClock();
  const emit = (event: ListenerEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // a renderer's failure must not take the endpoint down
    }
  };
  const serving = await serveExchanges(
    'listen',
    createInboundHandler(listenerRole(options, clock, emit)),
    options,
    (error) => emit({ type: 'listener-error', message: errorText(error) }),
  );
  const listening: ListeningEvent = {
    type: 'listening',
    url: serving.url,
    ...(options.channel === undefined ? {} : { channel: options.channel }),
  };
  return { ...serving, listening };
}

/**
 * The listener's one endpoint as a route (src/http/router.ts), for every method: spec 2.2,
 * the channel public id is the last path segment (the integrator's URL may have a path).
 * The role answers 404 before 405 (a wrong channel is not an endpoint at all), so the
 * method is checked after the match.
 */
const AGENT_MESSAGE_PATHS = createRouter<'agent-message'>();
AGENT_MESSAGE_PATHS.add([{ method: '*', path: '/*/:channel', handler: 'agent-message' }]);

/** spec 2.2: the channel public id a path names, decoded; undefined for `/`. */
function channelOfPath(path: string): string | undefined {
  const match = AGENT_MESSAGE_PATHS.match('POST', path);
  const last = match.kind === 'found' ? match.params.channel : undefined;
  return last === undefined ? undefined : decodeSegment(last);
}

/** The listener's part of the inbound pipeline (src/roles/inbound.ts). */
function listenerRole(
  options: ListenerOptions,
  clock: Clock,
  emit: (event: ListenerEvent) => void,
): InboundRole {
  const verdicts = new WeakMap<RoleAnswer, ReturnType<typeof verdictOf>>();
  return {
    iface: 'channel',
    clock,
    journal: options.journal,
    plan: options.plan,
    bodyLimit: options.bodyLimit,
    observe: options.observe,
    admit({ method, path }) {
      // spec 4.2: POST {integrator_url}/<channel_public_id>
      const channel = channelOfPath(path);
      if (channel === undefined || (options.channel !== undefined && channel !== options.channel)) {
        const expected = options.channel === undefined ? '<channel_public_id>' : options.channel;
        return {
          status: 404,
          code: 'not_found',
          message: `no agent-message endpoint at ${path}; expected POST /${expected} (spec 4.2)`,
        };
      }
      if (method !== 'POST') {
        return {
          status: 405,
          code: 'method_not_allowed',
          message: `${method} is not served; agent messages come by POST (spec 4.2)`,
          headers: { allow: 'POST' },
        };
      }
      return undefined;
    },
    kindOf: agentKindOf,
    answer(body) {
      const verdict = verdictOf(body.json, options.strict ?? false);
      const answer: RoleAnswer = {
        kind: verdict.kind,
        verdict: toRecordedVerdict(verdict),
        normal: { status: 200, body: OK_REPLY },
        key: messageKeyOf(body.json, body.raw),
        notes: [`transfer: ${body.transfer}`],
      };
      verdicts.set(answer, verdict);
      return answer;
    },
    onRejected(event) {
      emit({ ...event, status: event.status as RejectedRequestEvent['status'] });
    },
    onAnswered(outcome) {
      const verdict = verdicts.get(outcome.answer);
      const id = messageOf(outcome.body.json)?.id;
      const { applied } = outcome;
      emit({
        type: 'agent-message',
        request: outcome.decision.requestNumber,
        attempt: outcome.decision.attempt,
        channel: channelOfPath(outcome.path) ?? '',
        kind: outcome.answer.kind,
        ...(typeof id === 'string' || typeof id === 'number' ? { messageId: String(id) } : {}),
        transfer: outcome.body.transfer,
        bytes: outcome.body.bytes,
        verdict: verdict
          ? { ok: verdict.ok, errors: verdict.errors, warnings: verdict.warnings }
          : { ok: false, errors: [], warnings: [] },
        fault: outcome.fault,
        delayMs: outcome.decision.delayMs,
        reply: applied.noReply ? { noReply: applied.noReply } : { status: applied.status ?? 0 },
        protocolMs: outcome.protocolMs,
        durationMs: outcome.durationMs,
      });
    },
  };
}

/** spec 2.2-2.4: the agent message kind of a body, undefined when it is none. */
function agentKindOf(json: unknown): string | undefined {
  const detected = detectChannelKind(json);
  return detected?.startsWith('channel.agent.') ? detected : kindOfChannelMessage('agent', json);
}

/** spec 2.2-2.4: an agent message of a known type; anything else is a contract violation. */
function verdictOf(json: unknown, strict: boolean): ReturnType<typeof checkKind> {
  const kind = agentKindOf(json);
  if (kind === undefined) {
    return unknownKindVerdict(
      'unknown',
      '2.2',
      'must be an agent message: text, typein/typeout or a media type (spec 2.2-2.4)',
    );
  }
  return checkKind(kind, json, strict ? { strict } : {});
}
