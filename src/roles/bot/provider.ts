import { setMaxListeners } from 'node:events';
import { createClock, type Clock } from '../../clock.js';
import { detectKind } from '../../contract/detect.js';
import { formatIssue } from '../../contract/issues.js';
import { validate } from '../../contract/validate.js';
import { messageKeyOf } from '../../faults/index.js';
import { DEFAULT_BODY_LIMIT, errorBody } from '../../http/body.js';
import type { WireErrorCode } from '../../wire-errors.js';
import { serveExchanges, type InboundExchange } from '../../http/exchange.js';
import { createTokenClient } from '../../http/oauth-client.js';
import { createTokenIssuer, type TokenIssuer } from '../../http/oauth-issuer.js';
import { secretEquals } from '../../http/secret.js';
import { decodeSegment } from '../../http/server.js';
import { journalStep, type ExchangeInput, type Journal } from '../../journal/index.js';
import { bodyStep, compose, type PipelineContext } from '../../http/pipeline.js';
import {
  createInboundHandler,
  rejectedEvent,
  type InboundBody,
  type InboundOutcome,
  type InboundRequest,
  type InboundRole,
  type Refusal,
  type RoleAnswer,
  type RoleServerOptions,
  type ServingRole,
} from '../inbound.js';
import { createRouter } from '../../http/router.js';
import type { BotListeningEvent, BotSimEvent } from './events.js';
import {
  DEFAULT_BOT_SCRIPT,
  contactsIn,
  fillMessage,
  pickRule,
  type BotScript,
  type ScriptInput,
} from './script.js';
import {
  journalTokenRequest,
  platformEventUrl,
  sendToPlatform,
  type PlatformTarget,
} from './send.js';
import { errorText } from '../../errors.js';

export interface BotProviderOptions extends RoleServerOptions {
  /** the token the provider generated (spec 5.2); the platform posts to <any path>/<token> */
  token: string;
  /** the provider id the platform knows this provider by (spec 1.4) */
  providerId: string;
  /** the platform's bot service base URL; without it bot-sim only answers */
  platformUrl?: string;
  script?: BotScript;
  /** spec 5.3: serve POST /oauth/token, require Authorization, and use the platform's /providers path */
  auth?: { clientId: string; clientSecret: string; ttlMs?: number };
  /** `docs`: rules with `contact` send the public Bot API's CLIENT_INFO */
  botEvents?: 'spec' | 'docs' | undefined;
  onEvent?: (event: BotSimEvent) => void;
}

export interface BotProvider extends ServingRole<BotListeningEvent> {
  /** Points bot-sim at a platform started after it (in-process tests, the bench). */
  setPlatformUrl(url: string): void;
  /** Resolves when every scripted action started so far has ended. */
  idle(): Promise<void>;
}

// CHAT_CLOSED and AGENT_MESSAGE (public Bot API) are taken whatever --bot-events says: a
// receiver tolerates them
const INCOMING = [
  'CLIENT_MESSAGE',
  'AGENT_JOINED',
  'AGENT_UNAVAILABLE',
  'CHAT_CLOSED',
  'AGENT_MESSAGE',
] as const;
type Incoming = (typeof INCOMING)[number];

/** Why the scripted actions of a stopping bot-sim end (one for the process: no stack per stop). */
const BOT_SIM_STOPPED = new Error('bot-sim stopped');

/** A validated id (string or number, spec 2.5) as text. */
const idText = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;

/** `{ [key]: value }` when value is defined, else `{}` (exactOptionalPropertyTypes). */
const optional = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });

/** What every part of a running bot-sim shares. */
interface BotRun {
  options: BotProviderOptions;
  clock: Clock;
  script: BotScript;
  /** aborts the scripted actions when bot-sim stops */
  controller: AbortController;
  /** event ids already acted on (the platform redelivers) */
  acted: Set<string>;
  /** the scripted actions in flight */
  work: Set<Promise<unknown>>;
  emit: (event: BotSimEvent) => void;
  issuer: TokenIssuer | undefined;
  /** where the scripted actions post (absent: bot-sim only answers) */
  target: PlatformTarget | undefined;
}

/** A valid event as the script reads it. */
interface ParsedEvent {
  name: Incoming;
  json: Record<string, unknown>;
}

/**
 * bot-sim: a scripted bot provider (interface B, provider side). Serves `POST /<token>`,
 * answers every valid event with 200 at once (or as the fault plan says), then acts by its
 * script and posts BOT_MESSAGE / INVITE_AGENT to the platform. Never prints.
 * @example const bot = await createBotProvider({ token: 't0k', providerId: 'acme', platformUrl, port: 0 });
 */
export async function createBotProvider(options: BotProviderOptions): Promise<BotProvider> {
  const run = botRun(options);
  const { clock, controller, work, emit, issuer } = run;
  const server = await serveExchanges('bot', providerRoutes(run), options, (error) =>
    emit(
      rejectedEvent(
        { method: 'POST', path: '/<token>' },
        { status: 500, code: 'internal', message: errorText(error) },
        clock.now(),
      ),
    ),
  );
  const target = run.target;
  const listening: BotListeningEvent = {
    type: 'listening',
    url: server.url,
    eventsUrl: `${server.url}/<token>`,
    ...(target ? { platformUrl: platformEventUrl(target).replace(/[^/]+$/, '<token>') } : {}),
    ...(issuer ? { tokenUrl: `${server.url}/oauth/token` } : {}),
  };
  return {
    url: server.url,
    listening,
    ...(server.server ? { server: server.server } : {}),
    fetch: server.fetch,
    setPlatformUrl(url) {
      run.target = connect(run, url);
    },
    async idle() {
      while (work.size > 0) await Promise.allSettled([...work]);
    },
    async close(graceMs) {
      controller.abort(BOT_SIM_STOPPED);
      await server.close(graceMs);
      await Promise.allSettled([...work]);
    },
  };
}

/** A bot-sim's state, made once at start. */
function botRun(options: BotProviderOptions): BotRun {
  const clock = options.clock ?? createClock();
  const controller = new AbortController();
  // Every in-flight answer listens on this signal; hundreds may be in flight under load.
  setMaxListeners(0, controller.signal);
  const run: BotRun = {
    options,
    clock,
    script: options.script ?? DEFAULT_BOT_SCRIPT,
    controller,
    acted: new Set(),
    work: new Set(),
    emit: (event) => {
      try {
        options.onEvent?.(event);
      } catch {
        // a renderer's failure must not take the endpoint down
      }
    },
    issuer: options.auth
      ? createTokenIssuer({
          clientId: options.auth.clientId,
          clientSecret: options.auth.clientSecret,
          clock,
          ...(options.auth.ttlMs === undefined ? {} : { ttlMs: options.auth.ttlMs }),
        })
      : undefined,
    target: undefined,
  };
  if (options.platformUrl) run.target = connect(run, options.platformUrl);
  return run;
}

/**
 * The platform bot-sim posts to, with a token client when it authenticates (spec 5.3); with a
 * journal (`--record`), each request it makes there is journaled beside those it served.
 */
function connect(run: BotRun, url: string): PlatformTarget {
  const { options, clock, controller, emit } = run;
  const platformUrl = url.replace(/\/+$/, '');
  return {
    platformUrl,
    providerId: options.providerId,
    token: options.token,
    clock,
    signal: controller.signal,
    journal: options.journal,
    ...(options.auth
      ? {
          tokens: createTokenClient({
            tokenUrl: `${platformUrl}/oauth/token`,
            clientId: options.auth.clientId,
            clientSecret: options.auth.clientSecret,
            clock,
            signal: controller.signal,
            onToken: (report) => emit({ type: 'bot-token', ...report, protocolMs: clock.now() }),
            onExchange: (exchange) => journalTokenRequest(options.journal, clock, exchange),
          }),
        }
      : {}),
  };
}

/**
 * The provider's endpoints as a route table matched once (src/http/router.ts): with `--auth`
 * the token endpoint (spec 5.3), and the events under any path (spec 4.3: the provider's own
 * URL is free to choose; the last segment is the token).
 */
function providerRoutes(run: BotRun): (exchange: InboundExchange) => void | Promise<void> {
  type Endpoint = (exchange: InboundExchange) => void | Promise<void>;
  const events = createInboundHandler(eventRole(run));
  const router = createRouter<Endpoint>();
  // `/` matches no route: the events' endpoint answers it too (its 404)
  router.add([{ method: '*', path: EVENT_PATH, handler: events }]);
  if (run.issuer) {
    const { options, clock, emit } = run;
    const handleToken = tokenEndpoint(run.issuer, {
      journal: options.journal,
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      clock,
      emit,
    });
    router.add([{ method: '*', path: '/oauth/token', handler: handleToken }]);
  }
  return (exchange) => {
    const match = router.match(exchange.method, exchange.path);
    return (match.kind === 'found' ? match.handler : events)(exchange);
  };
}

/** spec 4.3: the events' path: any path whose last segment is the token. */
const EVENT_PATH = '/*/:token';

/** The events' path as a route (src/http/router.ts), to read the token from. */
const EVENT_PATHS = createRouter<true>();
EVENT_PATHS.add([{ method: '*', path: EVENT_PATH, handler: true }]);

/** The path with its token segment hidden, for events and lines. */
const shownPath = (path: string): string => path.replace(/[^/]+\/?$/, '<token>');

/**
 * spec 4.3: POST {bot_provider_url}/<token>, through the roles' one inbound pipeline so every
 * role refuses alike: refusals before the body, the fault plan on valid events, one journal
 * record.
 */
function eventRole(run: BotRun): InboundRole {
  const { options, clock } = run;
  /** What a valid event asks of the script (kept from the answer for onAnswered). */
  const parsedEvents = new WeakMap<object, ParsedEvent>();
  return {
    iface: 'bot',
    clock,
    journal: options.journal,
    plan: options.plan,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    observe: options.observe,
    admit: (request) => admitEvent(run, request),
    // spec 6.1: the event the platform sent, for the record of one refused before its body
    kindOf: (json) => {
      const { kind } = detectKind(json);
      return kind?.startsWith('bot.event.') ? kind : undefined;
    },
    answer(body) {
      const judged = judgeEvent(body);
      if (judged.parsed) parsedEvents.set(body, judged.parsed);
      return judged.answer;
    },
    shownPath,
    // bot-sim's event names no transfer mode
    onRejected: ({ transfer: _transfer, ...event }) => run.emit(event),
    onAnswered(outcome) {
      const parsed = parsedEvents.get(outcome.body);
      if (parsed) received(run, outcome, parsed);
    },
  };
}

/** Whether a request is an event for this bot (spec 4.3, 5.2, 5.3), else why not. */
function admitEvent(run: BotRun, { method, path, headers }: InboundRequest): Refusal | undefined {
  // the provider's own URL is free to choose (spec 4.3), so any path whose last segment
  // is the token is this bot (`--bot-provider-url .../bot`)
  const match = EVENT_PATHS.match(method, path);
  const token = match.kind === 'found' ? match.params.token : undefined;
  if (token === undefined)
    return {
      status: 404,
      code: 'not_found',
      message: `no endpoint at ${path}; the platform posts to {bot_provider_url}/<token> (spec 4.3)`,
    };
  if (method !== 'POST')
    return {
      status: 405,
      code: 'invalid_request',
      message: `${method} is not supported; use POST (spec 4.3)`,
      headers: { allow: 'POST' },
    };
  if (!secretEquals(decodeSegment(token), run.options.token))
    return {
      status: 401,
      code: 'invalid_client',
      message:
        "the client token failed authentication (spec 5.2, 7.2): the last path segment must be bot-sim's --token, the platform's --bot-token",
    };
  if (run.issuer && !run.issuer.verify(headers.authorization))
    return {
      status: 401,
      code: 'unauthorized_client',
      message:
        'authorization failed: send Authorization: Bearer <token from POST /oauth/token> (spec 5.3)',
    };
  return undefined;
}

/** An event body judged (spec 6.1): the answer, and the event when it is one bot-sim takes. */
function judgeEvent(body: InboundBody): { answer: RoleAnswer; parsed?: ParsedEvent } {
  const detected = detectKind(body.json);
  const name = detected.kind?.startsWith('bot.event.')
    ? detected.kind.slice('bot.event.'.length)
    : undefined;
  const refuse = (message: string): { answer: RoleAnswer } => ({
    answer: {
      kind: detected.kind ?? 'bot.event',
      verdict: { ok: false, errors: [`invalid_request: ${message}`], warnings: [] },
      normal: { status: 400, body: errorBody('invalid_request', message) },
      key: messageKeyOf(body.json, body.raw),
      refused: { code: 'invalid_request', message },
    },
  });
  if (!name || !(INCOMING as readonly string[]).includes(name))
    return refuse(
      name
        ? `${name} goes from the provider to the platform; a provider takes ${INCOMING.join(', ')} (spec 6.1)`
        : `not a bot event: ${'reason' in detected ? detected.reason : 'unknown'} (spec 6.1)`,
    );
  const result = validate(`bot.event.${name}`, body.json);
  if (!result.ok) return refuse(result.errors.map(formatIssue).join('; '));
  const json = body.json as Record<string, unknown>;
  return {
    answer: {
      kind: `bot.event.${name}`,
      verdict: { ok: true, errors: [], warnings: result.warnings.map(formatIssue) },
      normal: { status: 200, body: {} },
      key: messageKeyOf(json, body.raw),
    },
    parsed: { name: name as Incoming, json },
  };
}

/**
 * A valid event answered: `bot-received`, and the script's rule acted on once per event id,
 * only once it was answered 200 (the platform retries otherwise).
 */
function received(run: BotRun, outcome: InboundOutcome, parsed: ParsedEvent): void {
  const { name, json } = parsed;
  const message = (json.message ?? {}) as Record<string, unknown>;
  const input: ScriptInput = {
    event: name,
    ...(typeof message.text === 'string' ? { text: message.text } : {}),
    ...optional('buttonId', idText(message.button_id)),
  };
  const { applied, decision } = outcome;
  const eventId = idText(json.id) ?? '';
  const rule =
    applied.status === 200 && !run.acted.has(eventId) ? pickRule(run.script, input) : undefined;
  if (applied.status === 200) run.acted.add(eventId);
  run.emit({
    type: 'bot-received',
    event: name,
    eventId,
    ...optional('chatId', idText(json.chat_id)),
    ...(typeof json.client_id === 'string' ? { clientId: json.client_id } : {}),
    ...(input.text === undefined ? {} : { text: input.text }),
    ...(input.buttonId === undefined ? {} : { buttonId: input.buttonId }),
    attempt: decision.attempt,
    reply: applied.noReply ? { noReply: applied.noReply } : { status: applied.status ?? 0 },
    fault: outcome.fault,
    ...(rule?.name ? { rule: rule.name } : {}),
    protocolMs: outcome.protocolMs,
  });
  if (rule) {
    const job = act(run, json, input, rule).catch(() => undefined);
    run.work.add(job);
    void job.finally(() => run.work.delete(job));
  }
}

/** A rule's actions: its replies, the contact it read (docs events), the hand-over. */
async function act(
  run: BotRun,
  json: Record<string, unknown>,
  input: ScriptInput,
  rule: NonNullable<ReturnType<typeof pickRule>>,
): Promise<void> {
  const { clock, controller, options } = run;
  if (rule.delayMs) await clock.sleep(rule.delayMs, controller.signal);
  const target = run.target;
  if (!target) return;
  const chatId = idText(json.chat_id) ?? '';
  // a numeric client_id (drift the platform's payload may carry) goes back as a string
  const clientId = idText(json.client_id);
  const send = async (event: Parameters<typeof sendToPlatform>[1]): Promise<void> => {
    const sent = await sendToPlatform(target, { ...event, ...(clientId ? { clientId } : {}) });
    run.emit({
      type: 'bot-sent',
      ...sent,
      ...(rule.name ? { rule: rule.name } : {}),
      protocolMs: clock.now(),
    });
  };
  for (const message of rule.reply)
    await send({ event: 'BOT_MESSAGE', chatId, message: fillMessage(message, input) });
  const contactInfo = contactsIn(input.text ?? '');
  if (rule.contact && options.botEvents === 'docs' && Object.keys(contactInfo).length > 0)
    await send({ event: 'CLIENT_INFO', chatId, contactInfo });
  if (rule.invite) await send({ event: 'INVITE_AGENT', chatId });
}

/**
 * spec 5.3 (assumed OAuth2 client credentials): the provider's token endpoint, through the
 * request pipeline's body and journal steps (composed once). A form body is the issuer's to
 * read, so only an oversized one is refused here.
 */
function tokenEndpoint(
  issuer: TokenIssuer,
  context: {
    journal: Journal | undefined;
    bodyLimit: number;
    clock: Clock;
    emit: (event: BotSimEvent) => void;
  },
): (exchange: InboundExchange) => void | Promise<void> {
  const { journal, bodyLimit, clock, emit } = context;
  const run = compose<TokenContext>(
    [
      journalStep<TokenContext>(() => journal, tokenRecord),
      bodyStep<TokenContext>({
        limit: bodyLimit,
        wants: (ctx) => ctx.method === 'POST',
        read: (ctx, limit, then) => void ctx.exchange.readBody(limit).then(then),
      }),
    ],
    (ctx) => {
      const { method, path, wire } = ctx.exchange;
      const reject = (status: number, code: WireErrorCode, message: string): void => {
        const body = JSON.stringify(errorBody(code, message));
        wire.send(status, body, status === 405 ? { allow: 'POST' } : {}, { batched: true });
        // the roles' one request-rejected event; bot-sim's names no transfer mode
        emit(rejectedEvent({ method, path }, { status, code, message }, clock.now(), shownPath));
        ctx.answered = { status, body };
        ctx.verdict = { ok: false, errors: [`${code}: ${message}`], warnings: [] };
      };
      const tokenBody = ctx.body;
      if (method !== 'POST' || !tokenBody) {
        ctx.exchange.skipBody();
        return reject(405, 'invalid_request', 'use POST');
      }
      if (!tokenBody.ok && tokenBody.status === 413) {
        ctx.body = undefined; // recorded without the body, as it was dropped
        return reject(413, 'invalid_request', tokenBody.message);
      }
      const issued = issuer.issue(tokenBody);
      emit({
        type: 'bot-token',
        action: issued.ok ? 'issued' : 'refused',
        ...(issued.ok
          ? { expiresInMs: issued.body.expires_in * 1000 }
          : { reason: issued.message }),
        protocolMs: ctx.started,
      });
      if (!issued.ok) return reject(issued.status, issued.code, issued.message);
      const body = JSON.stringify(issued.body);
      wire.send(200, body, { 'cache-control': 'no-store' }, { batched: true });
      ctx.answered = { status: 200, body };
      ctx.bodyAlways = true;
    },
  );
  return (exchange) =>
    run({
      method: exchange.method,
      started: clock.now(),
      wallStarted: clock.wallNow(),
      exchange,
      clock,
    });
}

/** A request to the provider's token endpoint on its way through the pipeline. */
interface TokenContext extends PipelineContext {
  exchange: InboundExchange;
  clock: Clock;
  /** what was answered */
  answered?: { status: number; body: string };
  verdict?: { ok: boolean; errors: string[]; warnings: string[] };
  /** an issued token's record names the body even when it was empty */
  bodyAlways?: boolean;
}

/** The token endpoint's record (its URL is the path, as it always was). */
function tokenRecord(ctx: TokenContext): ExchangeInput | undefined {
  const { method, path, headers } = ctx.exchange;
  if (!ctx.answered) return undefined;
  const raw = ctx.body?.raw;
  return {
    protocolMs: ctx.started,
    iface: 'bot',
    direction: 'in',
    request: {
      method,
      url: path,
      headers,
      ...(ctx.bodyAlways ? { body: raw ?? '' } : raw === undefined ? {} : { body: raw }),
    },
    response: ctx.answered,
    durationMs: ctx.clock.now() - ctx.started,
    wallMs: ctx.clock.wallNow() - ctx.wallStarted,
    ...(ctx.verdict ? { verdict: ctx.verdict } : {}),
  };
}
