import { fireOnce, type MutantName } from '../mutants.js';
import { detectKind } from '../../contract/detect.js';
import { formatIssue, refusalText } from '../../contract/issues.js';
import { validate } from '../../contract/validate.js';
import type { ContractIssue } from '../../contract/types.js';
import { errorBody, isJsonContentType, type BodyResult } from '../../http/body.js';
import { constantBody } from '../constant-body.js';
import { ProtocolError } from '../../protocol-error.js';
import { triageCustomerMessage } from './customer-triage.js';
import type { PlatformCore } from '../core.js';
import { secretEquals } from '../ids.js';
import type { Channel, Chat, ChatLine, Customer } from '../model.js';
import type { PlatformEvent } from '../events.js';
import { appendChatLine, clientIdOf, mediaOf } from '../model.js';
import type { PlatformRequest, PlatformResponse, PlatformService } from '../types.js';
import { simPathHint } from '../service-table.js';

/** spec 4.1: the answer to a message taken (or ignored), the same every time. */
const OK = constantBody({ result: 'ok' });

/** spec 2.1, 8: message.text longer than this many characters is cut, not refused. */
export const TEXT_CUT_LIMIT = 1000;

/** Cuts to `limit` code points, never splitting a surrogate pair (a cut emoji would be invalid text). */
export function cutText(
  text: string,
  limit = TEXT_CUT_LIMIT,
): { text: string; from: number } | undefined {
  if (text.length <= limit) return undefined; // never more code points than UTF-16 units
  const points = Array.from(text);
  if (points.length <= limit) return undefined;
  return { text: points.slice(0, limit).join(''), from: points.length };
}

/** spec 7.1: an empty sender.id is not sent; the mutant fills it in and delivers. */
function withEmptySenderFilled(json: unknown, mutant: MutantName | undefined): unknown {
  if (mutant !== 'empty-sender-delivered' || !isObject(json) || !isObject(json.sender)) return json;
  if (json.sender.id !== '') return json;
  return { ...json, sender: { ...json.sender, id: 'anonymous' } };
}

/** The cut limit, or none, under a limits mutant (spec 8). */
function cutLimitOf(mutant: MutantName | undefined): number | undefined {
  if (mutant === 'no-text-cut') return undefined;
  if (mutant === 'cut-at-999') return TEXT_CUT_LIMIT - 1;
  if (mutant === 'cut-at-1001') return TEXT_CUT_LIMIT + 1;
  return TEXT_CUT_LIMIT;
}

const SENDER_FIELDS = ['name', 'phone', 'email', 'photo', 'invite'] as const;

type Json = Record<string, unknown>;
type CustomerMessage = Extract<PlatformEvent, { type: 'customer-message' }>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** spec 4.1, 7.1: the 404's message, the same for an unknown public id or a wrong random string. */
export const NO_CHANNEL = 'no channel at this URL: unknown public id, or a wrong random string';

/**
 * The chat channel's platform side (spec 4.1): the channel URL that takes customer messages
 * and its status endpoint. Paths are `/<random_string>/<channel_public_id>[/status]`.
 */
export function createChannelService(core: PlatformCore): PlatformService {
  const notFound = (request: PlatformRequest, params: Readonly<Record<string, string>>): never => {
    // /_sim/<x> is a mistyped control path, not a channel URL
    if (request.path.startsWith('/_sim/'))
      throw new ProtocolError(
        'not_found',
        `no endpoint at ${request.method} ${request.path}${simPathHint(request.path)}`,
      );
    // the simulator's own log may say which part is wrong; the answer does not (it would
    // tell a caller which public ids exist)
    const known = core.state.channels.get(params.channel ?? '')?.kind === 'custom';
    // spec 4.1, 7.1: unknown public id (or wrong random string) -> 404
    throw new ProtocolError('not_found', NO_CHANNEL, {
      report: known
        ? `wrong random string for channel "${params.channel ?? ''}"`
        : `no channel has the public id "${params.channel ?? ''}"`,
    });
  };

  /** The custom channel of the URL, when its random string matches (compared in constant time). */
  const channelOf = (params: Readonly<Record<string, string>>): Channel | undefined => {
    const channel = core.state.channels.get(params.channel ?? '');
    return channel &&
      channel.kind === 'custom' &&
      secretEquals(params.random ?? '', channel.randomString)
      ? channel
      : undefined;
  };

  return {
    name: 'channel',
    // spec 4.1: {base_url}/<random_string>/<channel_public_id>[/status]; an unknown channel
    // is a 404 whatever the method, so the routes take every method and check it after
    routes: [
      {
        method: '*',
        path: '/:random/:channel',
        serves: ['POST'],
        handler(request, params) {
          const channel = channelOf(params);
          // spec 7.1: an unknown channel is a 404; the mutant answers 200 and drops the message
          if (!channel && core.mutant === 'unknown-channel-200')
            return { status: 200, body: OK, record: { iface: 'channel' } };
          if (!channel) return notFound(request, params);
          if (request.method !== 'POST') return methodNotAllowed('POST');
          return ingest(core, channel, request);
        },
      },
      {
        method: '*',
        path: '/:random/:channel/status',
        serves: ['GET', 'HEAD'],
        handler(request, params) {
          const channel = channelOf(params);
          if (!channel) return notFound(request, params);
          if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
          // spec 3: 1 available (agents online), 0 unavailable
          const available = core.state.agentsOnline && channel.agentIds.length > 0;
          const online = core.mutant === 'status-inverted' ? !available : available;
          return {
            status: 200,
            body: online ? '1' : '0',
            headers: { 'content-type': 'text/plain' },
            record: { iface: 'channel', kind: 'channel.status' },
          };
        },
      },
    ],
  };
}

function methodNotAllowed(allow: string): never {
  throw new ProtocolError('method_not_allowed', `use ${allow}`, { headers: { allow } });
}

/** spec 4.1: a customer message on the channel URL, checked, taken into its chat and announced. */
function ingest(core: PlatformCore, channel: Channel, request: PlatformRequest): PlatformResponse {
  const now = core.clock.now();
  // spec 4.1: a status other than 200 means the message was not taken
  if (core.mutant === 'customer-500-once' && fireOnce(core, 'customer-500-once'))
    return {
      status: 500,
      body: errorBody('internal', 'simulated failure'),
      record: { iface: 'channel', notes: ['mutant customer-500-once'] },
    };
  const body = request.body;
  if (!body || !body.ok) return refuseUnreadBody(body);
  const json = withEmptySenderFilled(body.json, core.mutant);
  const detected = detectKind(json);
  if (!detected.kind || !detected.kind.startsWith('channel.customer.'))
    return notCustomerMessage(core, channel, json, detected, now);
  const kind = detected.kind;
  const result = withContentType(validate(kind, json), request.headers['content-type']);
  const verdict = verdictOf(result);
  // only a missing or empty required field blocks delivery (customer-triage.ts)
  const triage = triageCustomerMessage(kind, json, result);
  if (!triage.deliverable) {
    // spec 2.1, 7.1: e.g. empty sender.id -> the message is not sent
    const outcome = core.strict ? 'rejected' : 'not-delivered';
    // the fields sent under other names are why: on the platform's line as in the 400
    const unknown = result.warnings.filter((issue) => issue.code === 'unknown_field');
    reportViolation(core, channel, kind, [...result.errors, ...unknown], outcome, now);
    if (core.strict)
      // a field under another name (sender.user_id, message.body) is why one is missing: the
      // refusal names it beside the missing one, with the field it was likely meant to be
      throw new ProtocolError('invalid_request', refusalText(result), {
        section: '7.1',
        record: { kind, verdict },
        report: false, // the violation above says it
      });
    return {
      status: 200,
      body: OK,
      record: { iface: 'channel', kind, verdict, notes: ['not delivered'] },
    };
  }
  const payload = triage.payload as { sender: Json; message: Json };
  if (!result.ok)
    reportViolation(core, channel, kind, result.errors, 'delivered', now, triage.dropped);
  const cut =
    kind === 'channel.customer.text' ? cutCustomerText(payload.message, core.mutant) : undefined;
  if (result.warnings.length > 0)
    reportViolation(core, channel, kind, result.warnings, 'warned', now);
  const chat = takeMessage(core, channel, kind, payload, cut, now);
  // the common message has neither: no notes built for it
  const notes =
    triage.dropped.length > 0 || cut
      ? [
          ...(triage.dropped.length > 0 ? [`delivered without ${triage.dropped.join(', ')}`] : []),
          ...(cut ? [`text cut from ${cut.from} to ${cut.to} characters`] : []),
        ]
      : undefined;
  const record: NonNullable<PlatformResponse['record']> = {
    iface: 'channel',
    kind,
    chat: chat.id,
    verdict,
  };
  if (notes) record.notes = notes;
  return { status: 200, body: OK, record };
}

/**
 * spec 4: "all bodies are JSON": one sent as text/plain or form-encoded (a client that forgot
 * the header) is read all the same, with a warning, as the bot interface does.
 */
function withContentType(
  result: ReturnType<typeof validate>,
  contentType: string | undefined,
): ReturnType<typeof validate> {
  if (isJsonContentType(contentType)) return result;
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  const warning: ContractIssue = {
    path: '(headers) Content-Type',
    code: 'content_type',
    rule: `is ${type ? JSON.stringify(type) : 'missing'}; the channel takes JSON bodies (accepted, as the body is JSON)`,
    spec: '4',
    severity: 'warning',
  };
  return { ...result, warnings: [...result.warnings, warning] };
}

/** A message that passed every rule: the verdict of nearly every ingested one, made once. */
const CLEAN_VERDICT: Verdict = Object.freeze({
  ok: true,
  errors: Object.freeze([]) as unknown as string[],
  warnings: Object.freeze([]) as unknown as string[],
});

type Verdict = NonNullable<NonNullable<PlatformResponse['record']>['verdict']>;

/** The journal's verdict of a validation result: its issues as text. */
function verdictOf(result: ReturnType<typeof validate>): Verdict {
  if (result.ok && result.errors.length === 0 && result.warnings.length === 0) return CLEAN_VERDICT;
  return {
    ok: result.ok,
    errors: result.errors.map(formatIssue),
    warnings: result.warnings.map(formatIssue),
  };
}

/** A customer message's contract issues, announced with what the simulator did with it. */
function reportViolation(
  core: PlatformCore,
  channel: Channel,
  kind: string,
  issues: ContractIssue[],
  outcome: 'rejected' | 'not-delivered' | 'warned' | 'delivered',
  now: number,
  dropped?: string[],
): void {
  core.emit({
    type: 'violation',
    source: 'channel',
    channelId: channel.id,
    kind,
    issues,
    outcome,
    ...(dropped && dropped.length > 0 ? { dropped } : {}),
    protocolMs: now,
  });
}

/**
 * spec 7.1: no body, or one that is not JSON (body.ts said why): refused (the core reports it
 * as it answers).
 */
function refuseUnreadBody(body: Extract<BodyResult, { ok: false }> | undefined): never {
  const status = body?.status ?? 400;
  const code = body?.code ?? 'empty_body';
  const message = body?.message ?? 'a JSON body is required';
  throw new ProtocolError(code, message, { status, record: { notes: [message] } });
}

/**
 * Not a customer message: a message of a type this role does not know is ignored with a
 * warning (spec 2.3, answered 200); anything else is refused with 400 (spec 2.1).
 */
export function notCustomerMessage(
  core: PlatformCore,
  channel: Channel,
  json: unknown,
  detected: ReturnType<typeof detectKind>,
  now: number,
): PlatformResponse {
  const type = isObject(json) && isObject(json.message) ? json.message.type : undefined;
  const violation = { type: 'violation', source: 'channel', channelId: channel.id } as const;
  if (typeof type === 'string' && isObject(json) && isObject(json.sender)) {
    // spec 2.3: any other type value in this role is ignored
    const issue: ContractIssue = {
      path: 'message.type',
      code: 'ignored_type',
      rule: `type "${type}" is not text, typein, typeout or a media type; ignored`,
      spec: '2.3',
      severity: 'warning',
    };
    core.emit({ ...violation, issues: [issue], outcome: 'ignored', protocolMs: now });
    return {
      status: 200,
      body: OK,
      record: {
        iface: 'channel',
        verdict: { ok: true, errors: [], warnings: [formatIssue(issue)] },
        notes: ['ignored'],
      },
    };
  }
  const reason = detected.kind?.startsWith('channel.agent.')
    ? 'this is an agent message (spec 2.2); the channel URL takes customer messages (spec 2.1)'
    : `not a customer message: ${'reason' in detected ? detected.reason : `detected ${detected.kind}`}`;
  const issue: ContractIssue = {
    path: '',
    code: 'wrong_kind',
    rule: reason,
    spec: '2.1',
    severity: 'error',
  };
  core.emit({ ...violation, issues: [issue], outcome: 'rejected', protocolMs: now });
  throw new ProtocolError('invalid_request', reason, {
    section: '2.1',
    record: { verdict: { ok: false, errors: [reason], warnings: [] } },
    report: false, // the violation above says it
  });
}

/**
 * spec 2.1, 8: a customer text longer than the limit is cut in place (no error); what it was
 * cut from and to, or undefined when it was not (a limits mutant moves or drops the limit).
 */
export function cutCustomerText(
  message: Json,
  mutant: MutantName | undefined,
): { from: number; to: number } | undefined {
  if (typeof message.text !== 'string') return undefined;
  const limit = cutLimitOf(mutant);
  const shortened = limit === undefined ? undefined : cutText(message.text, limit);
  if (!shortened || limit === undefined) return undefined;
  message.text = shortened.text;
  return { from: shortened.from, to: limit };
}

/**
 * A deliverable customer message taken in: the customer's data, their open chat (opened when
 * none is), then typing announced as an event, any other message logged and announced as the
 * `customer-message` moment (the bot service decides there).
 */
function takeMessage(
  core: PlatformCore,
  channel: Channel,
  kind: string,
  payload: { sender: Json; message: Json },
  cut: { from: number; to: number } | undefined,
  now: number,
): Chat {
  const customer = upsertCustomer(core, channel, payload.sender);
  const { chat } = core.openChat(customer, now);
  chat.lastActivityMs = now;
  core.touchChat(chat);
  if (kind === 'channel.customer.typing') {
    core.emit({
      type: 'customer-typing',
      channelId: channel.id,
      chatId: chat.id,
      customerId: customer.senderId,
      typing: payload.message.type === 'typein',
      protocolMs: now,
    });
    return chat;
  }
  const text = typeof payload.message.text === 'string' ? payload.message.text : undefined;
  // built field by field, in the order they are shown, without a spread object for each
  // optional field: once per ingested message
  const line: ChatLine = { timestamp: core.clock.epochSeconds(), type: 'visitor', kind };
  if (text !== undefined) line.text = text;
  else {
    const media = mediaOf(payload.message);
    if (media) line.media = media;
  }
  appendChatLine(chat, line);
  const moment = {
    type: 'customer-message',
    channelId: channel.id,
    chatId: chat.id,
    customerId: customer.senderId,
  } as CustomerMessage;
  if (customer.name) moment.customerName = customer.name;
  moment.kind = kind;
  if (text !== undefined) moment.text = text;
  if (cut) moment.cut = cut;
  moment.protocolMs = now;
  core.moment(moment);
  return chat;
}

/** spec 2.1: name, phone, email, photo may change during a chat; the latest values win. */
function upsertCustomer(core: PlatformCore, channel: Channel, sender: Json): Customer {
  const senderId = String(sender.id);
  const key = `${channel.id}/${senderId}`;
  let customer = core.state.customers.get(key);
  const isNew = !customer;
  let changed: string[] | undefined; // a sender's fields rarely change: no array for each
  if (!customer) {
    const number = core.state.nextVisitorNumber++;
    customer = {
      key,
      channelId: channel.id,
      senderId,
      clientId: clientIdOf(core.state, number),
      visitorNumber: number,
    };
    core.state.customers.set(key, customer);
  }
  for (const field of SENDER_FIELDS) {
    const value = sender[field];
    if (typeof value === 'string' && value !== customer[field]) {
      customer[field] = value;
      if (!isNew) (changed ??= []).push(field);
    }
  }
  if (changed) {
    const { chat } = core.openChat(customer);
    core.moment({
      type: 'customer-updated',
      chatId: chat.id,
      customerId: senderId,
      fields: changed,
      protocolMs: core.clock.now(),
    });
  }
  return customer;
}
