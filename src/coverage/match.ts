/**
 * Which coverage items one recorded exchange exercises. A record is read by its payload kind,
 * not by who recorded it: a platform's `--record`, a `listen` or `hook-target` recording and
 * a proxy's all name the kind of the request body, and the answer is the other side's.
 */
import { detectKind } from '../contract/detect.js';
import { KINDS } from '../contract/registry.js';
import { MILLISECONDS_ABOVE } from '../contract/bot.js';
import { API_OPERATIONS, type ApiOperation } from '../contract/api-docs/operations.js';
import { isPushRecord, type ExchangeRecord } from '../journal/record.js';
import { fieldRows, type FieldRow } from '../reference/fields.js';
import { DELIVERY_POLICIES, familyOf } from './catalogue.js';

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parse(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The field rows of a kind, read once per process. */
const rowsByKind = new Map<string, FieldRow[]>();
function rowsOf(kind: string): FieldRow[] {
  let rows = rowsByKind.get(kind);
  if (!rows) {
    rows = KINDS.has(kind) ? fieldRows(kind) : [];
    rowsByKind.set(kind, rows);
  }
  return rows;
}

/** What sits at a dotted path (`[]` = every array item): one slot per container reached. */
function slotsAt(value: unknown, path: string): Array<{ present: boolean; value?: unknown }> {
  let containers: unknown[] = [value];
  const parts = path.split('.');
  for (const [i, part] of parts.entries()) {
    const array = part.endsWith('[]');
    const key = array ? part.slice(0, -2) : part;
    const last = i === parts.length - 1 && !array;
    if (last) {
      return containers
        .filter(isJson)
        .map((c) =>
          Object.prototype.hasOwnProperty.call(c, key)
            ? { present: true, value: c[key] }
            : { present: false },
        );
    }
    const next: unknown[] = [];
    for (const c of containers) {
      if (!isJson(c)) continue;
      const child = c[key];
      if (array) {
        if (Array.isArray(child)) next.push(...(child as unknown[]));
      } else if (child !== undefined && child !== null) next.push(child);
    }
    containers = next;
  }
  return [];
}

/** The field, value and form items a payload of `kind` exercises. */
function payloadHits(kind: string, body: unknown, hit: (id: string) => void): void {
  const family = familyOf(kind);
  for (const row of rowsOf(kind)) {
    if (row.path === '(body)') {
      hit(`value:${family}:(body)=${JSON.stringify(body)}`);
      continue;
    }
    for (const slot of slotsAt(body, row.path)) {
      if (!slot.present) {
        if (!row.required) hit(`field:${family}:${row.path}:absent`);
        continue;
      }
      if (slot.value === null) {
        if (!row.required) hit(`field:${family}:${row.path}:null`);
        continue;
      }
      // present is present: a field one kind of the family requires (a location's latitude)
      // exercises the family's item that another kind leaves optional (a photo's latitude)
      hit(`field:${family}:${row.path}:present`);
      if (row.values.length > 1) hit(`value:${family}:${row.path}=${JSON.stringify(slot.value)}`);
      if (row.drift) hit(`form:${family}:${row.path}:${typeof slot.value}`);
    }
  }
}

/** The page-script events the widget channel records, by the svc_api method that sends them. */
const WIDGET_EVENT_METHODS: Readonly<Record<string, string>> = {
  visitor_number: 'getVisitorNumber',
  contact_info: 'setContactInfo',
  custom_data: 'setCustomData',
  user_token: 'setUserToken',
  rules: 'setRules',
  invitation: 'showProactiveInvitation',
  offline_message: 'sendOfflineMessage',
  start_call: 'startCall',
};

const pathRegex = (op: ApiOperation): RegExp =>
  new RegExp(`${op.path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\/$/, '')}/?$`);
const OP_PATTERNS = API_OPERATIONS.map((op) => ({ op, regex: pathRegex(op) }));

/** The operation a record is an exchange of: by its request kind, then by its path. */
function operationOf(record: ExchangeRecord, kind: string | undefined): ApiOperation | undefined {
  let pathname: string;
  try {
    pathname = new URL(record.request.url, 'http://x.invalid').pathname;
  } catch {
    return undefined;
  }
  const method = record.request.method.toLowerCase();
  const candidates = OP_PATTERNS.filter(
    ({ op }) =>
      op.method === method &&
      op.iface ===
        ({ channel: 'A', bot: 'B', hook: 'D' } as Record<string, string>)[record.iface] &&
      (kind === undefined ? op.requestKinds === undefined : (op.requestKinds ?? []).includes(kind)),
  );
  if (candidates.length <= 1) return candidates[0]?.op;
  return (candidates.find(({ regex }) => regex.test(pathname)) ?? candidates[0])?.op;
}

/** Whether a delivery attempt was taken: the platform's judgement, else a 2xx answer. */
function accepted(record: ExchangeRecord): boolean {
  if (record.notes?.includes('accepted')) return true;
  if (record.notes?.some((n) => n.startsWith('rejected'))) return false;
  const status = record.response?.status;
  return status !== undefined && status >= 200 && status < 300;
}

/** The kind of a request body: as recorded, else detected. */
function kindOf(record: ExchangeRecord, body: unknown): string | undefined {
  if (record.kind !== undefined && KINDS.has(record.kind)) return record.kind;
  if (body === undefined) return undefined;
  const detected = detectKind(body);
  return 'kind' in detected ? detected.kind : undefined;
}

/**
 * Every item id one record exercises.
 * @example itemsOfRecord(record) // ['kind:channel.customer.text', 'field:channel.customer:sender.name:absent', ...]
 */
export function itemsOfRecord(record: ExchangeRecord): Set<string> {
  const hits = new Set<string>();
  const hit = (id: string): void => void hits.add(id);
  if (record.type !== 'exchange' || record.iface === 'control') return hits;
  const body = parse(record.request.body);
  if (record.iface === 'widget') {
    // an event pushed to the page (agent_message, call_status ...) is none of the page's calls
    if (isPushRecord(record)) return hits;
    const method = isJson(body) ? WIDGET_EVENT_METHODS[String(body.type)] : undefined;
    if (method && KINDS.has(`widget.${method}.args`)) hit(`kind:widget.${method}.args`);
    // a callback the page script reported running (spec 6.4): its arguments' kind, if it has one
    const callback = isJson(body) && body.type === 'callback' ? String(body.name) : undefined;
    if (callback && KINDS.has(`widget.callback.${callback}.args`))
      hit(`kind:widget.callback.${callback}.args`);
    return hits;
  }
  // GET status carries no payload: its answer is the channel.status body (spec 4.1)
  const statusRead =
    record.kind === 'channel.status' ||
    (record.iface === 'channel' && record.request.method === 'GET');
  const kind = statusRead ? undefined : kindOf(record, body);
  const status = record.response?.status;
  const answer = parse(record.response?.body);
  const op = operationOf(record, kind);
  if (op && status !== undefined && op.responses[String(status)]) hit(`status:${op.id}:${status}`);
  // GET status: the body is the answer (spec 4.1)
  if (kind === undefined && op?.id !== undefined && (answer === 0 || answer === 1)) {
    hit('kind:channel.status');
    payloadHits('channel.status', answer, hit);
  }
  if (kind === undefined) return hits;
  hit(`kind:${kind}`);
  payloadHits(kind, body, hit);
  const producedByParty = KINDS.get(kind)?.producer === 'party';
  // the answer to the payload: the party's reply to the platform, or the platform's refusal
  if (kind.startsWith('channel.agent.') && status === 200 && answer !== undefined) {
    hit('kind:channel.integrator.reply');
    payloadHits('channel.integrator.reply', answer, hit);
    if (isJson(answer) && isJson(answer.error)) hit('error:channel.integrator.reply:error-object');
  }
  if (kind.startsWith('hook.') && status === 200 && answer !== undefined) {
    const reply = `${kind}.reply`;
    if (KINDS.has(reply)) {
      hit(`kind:${reply}`);
      payloadHits(reply, answer, hit);
    }
  }
  if (producedByParty && status !== undefined && status >= 400 && isJson(answer)) {
    const error = isJson(answer.error) ? answer.error : undefined;
    if (kind.startsWith('channel.')) hit('error:channel.customer:rejected');
    if (kind.startsWith('bot.') && error && typeof error.code === 'string') {
      hit(`error:bot:${error.code}`);
      hit('kind:bot.error');
      payloadHits('bot.error', answer, hit);
    }
  }
  if (kind.startsWith('bot.event.') && isJson(body) && isJson(body.message)) {
    const ts = body.message.timestamp;
    if (ts !== undefined && ts !== null && ts !== '')
      hit(`timestamp:bot:${Number(ts) > MILLISECONDS_ABOVE ? 'milliseconds' : 'seconds'}`);
  }
  if (status === 200 && kind === 'bot.event.BOT_MESSAGE') hit('flow:bot:answer');
  if (status === 200 && kind === 'bot.event.INVITE_AGENT') hit('flow:bot:invite');
  if (record.notes?.some((n) => n.startsWith('text cut'))) hit('flow:channel:text-cut');
  if (kind.startsWith('channel.agent.')) {
    // the platform's note, else the request's framing as a receiver recorded it
    const headers = record.request.headers ?? {};
    const chunked =
      record.notes?.includes('transfer: chunked') ||
      /chunked/i.test(headers['transfer-encoding'] ?? '');
    const sized =
      record.notes?.includes('transfer: content-length') ||
      (!chunked && headers['content-length'] !== undefined);
    if (chunked) hit('timing:channel:chunked');
    if (sized) hit('timing:channel:content-length');
  }
  // a delivery attempt of the platform (spec 8): which attempt took it, or the series failed
  if (record.attempt !== undefined) {
    const name = kind.startsWith('channel.') ? 'channel' : kind.startsWith('bot.') ? 'bot' : 'hook';
    const policy = DELIVERY_POLICIES.find((p) => p.name === name)?.policy;
    if (accepted(record)) hit(`timing:${name}:attempt-${record.attempt}`);
    else if (policy && record.attempt >= policy.attempts) {
      hit(`timing:${name}:failed`);
      if (kind === 'bot.event.CLIENT_MESSAGE') hit('flow:bot:timeout-handover');
    }
  }
  return hits;
}
