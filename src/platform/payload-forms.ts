/**
 * The payload forms a profile asks the simulator to follow (`--profile`): per payload kind,
 * the form each field's value takes on the wire (a number or a numeric string for an id,
 * seconds or milliseconds in a time field), fields a platform was seen to send beyond the
 * simulator's (and none it was never seen to send), and the success status it answers with.
 * The services build their payloads as the spec has them; the JSON is reshaped on its way out
 * in one place (`shapeSent`, `shapeAnswer`), so nothing else knows about profiles.
 */
import { createHash } from 'node:crypto';
import { formOf, MS_TIMESTAMP_FLOOR, type ValueForm } from '../contract/value-form.js';
import type { PlatformResponse } from './types.js';

/** value form -> how many times a recording showed it */
export type FormTally = Record<string, number>;

export interface KindForms {
  /** JSON path (`a.b`, `a[]`, `a[].b`) -> the forms seen; the commonest is the one sent */
  fields: Record<string, FormTally>;
  /**
   * the kind was observed (not written by hand): a field the simulator would send and the
   * platform was never seen to send is left out
   */
  exclusive: boolean;
}

export interface AnswerForms extends KindForms {
  /** the 2xx status the platform answered this kind with, in place of the simulator's 200 */
  status?: number;
}

export interface PayloadForms {
  /** what the platform sends (agent messages, bot events, hook events), by payload kind */
  sent?: Record<string, KindForms>;
  /** what the platform answers to a peer's payload, by the payload's kind */
  answered?: Record<string, AnswerForms>;
}

/** The JSON paths of a kind's fields grouped by the path they hang from. */
interface Plan {
  forms: KindForms;
  /** parent path ('' for the top) -> [key, path] of each child field (`[]` for an array item) */
  children: Map<string, [string, string][]>;
}

const plans = new WeakMap<KindForms, Plan>();

function planOf(forms: KindForms): Plan {
  let plan = plans.get(forms);
  if (plan) return plan;
  const children = new Map<string, [string, string][]>();
  for (const path of Object.keys(forms.fields)) {
    const item = path.endsWith('[]');
    const cut = item ? path.length - 2 : path.lastIndexOf('.');
    const parent = cut <= 0 ? '' : path.slice(0, cut);
    const key = item ? '[]' : path.slice(cut + 1);
    const list = children.get(parent) ?? [];
    list.push([key, path]);
    children.set(parent, list);
  }
  plan = { forms, children };
  plans.set(forms, plan);
  return plan;
}

/** The commonest form of a tally (the first seen on a tie). */
function topForm(tally: FormTally): ValueForm | undefined {
  let top: string | undefined;
  for (const [form, n] of Object.entries(tally))
    if (top === undefined || n > tally[top]!) top = form;
  return top as ValueForm | undefined;
}

/**
 * A stable number for a string id (53 bits of its SHA-1), so an id the simulator writes as a
 * UUID keeps telling payloads apart when a profile wants numbers.
 */
function numberFor(text: string): number {
  return parseInt(createHash('sha1').update(text).digest('hex').slice(0, 13), 16);
}

/** A value turned into another form, where that keeps its meaning; else the value as is. */
function convert(value: unknown, key: string, to: ValueForm): unknown {
  const numeric =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
        ? Number(value)
        : undefined;
  switch (to) {
    case 'number':
      return numeric ?? (typeof value === 'string' ? numberFor(value) : value);
    case 'numeric string':
      return numeric === undefined
        ? typeof value === 'string'
          ? String(numberFor(value))
          : value
        : String(numeric);
    case 'number (ms timestamp)':
      if (numeric === undefined) return value;
      return numeric > MS_TIMESTAMP_FLOOR ? numeric : numeric * 1000;
    case 'number (s timestamp)':
      if (numeric === undefined) return value;
      return numeric > MS_TIMESTAMP_FLOOR ? Math.floor(numeric / 1000) : numeric;
    case 'null':
      return null;
    case 'string':
    case 'boolean':
    case 'object':
    case 'array':
      // a number cannot become a non-numeric string, nor a scalar an object, without
      // inventing a value: left as the simulator has it
      return value;
    default: {
      const unknownForm: never = to;
      throw new Error(`unknown value form ${String(unknownForm)}`);
    }
  }
}

/** A value of a form for a field the simulator does not send (the profile's extra field). */
function placeholder(plan: Plan, path: string, key: string, nowMs: number): unknown {
  const form = topForm(plan.forms.fields[path] ?? {});
  switch (form) {
    case 'object':
      return shapeValue(plan, {}, path, key, nowMs);
    case 'array': {
      const item = `${path}[]`;
      return plan.forms.fields[item] ? [placeholder(plan, item, key, nowMs)] : [];
    }
    case 'string':
      return '';
    case 'numeric string':
      return '0';
    case 'number':
      return 0;
    case 'number (ms timestamp)':
      return nowMs;
    case 'number (s timestamp)':
      return Math.floor(nowMs / 1000);
    case 'boolean':
      return false;
    case 'null':
    case undefined:
      return null;
    default: {
      const unknownForm: never = form;
      throw new Error(`unknown value form ${String(unknownForm)}`);
    }
  }
}

function shapeValue(plan: Plan, value: unknown, path: string, key: string, nowMs: number): unknown {
  const { fields, exclusive } = plan.forms;
  if (path !== '') {
    const tally = fields[path];
    const form = formOf(value, key);
    if (tally && !(form in tally)) {
      const to = topForm(tally);
      if (to !== undefined) value = convert(value, key, to);
    }
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const item = `${path}[]`;
    return value.map((v) => shapeValue(plan, v, item, key, nowMs));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const child = path === '' ? k : `${path}.${k}`;
    if (exclusive && !(child in fields)) continue;
    out[k] = shapeValue(plan, v, child, k, nowMs);
  }
  for (const [k, child] of plan.children.get(path) ?? []) {
    if (k === '[]' || k in out) continue;
    out[k] = placeholder(plan, child, k, nowMs);
  }
  return out;
}

/**
 * A JSON body in the forms of a kind; the text as is when it is not JSON or the kind has no
 * forms.
 * @example shapeBody('{"chat_id":"7"}', { fields: { chat_id: { number: 3 } }, exclusive: false }, 0) // '{"chat_id":7}'
 */
export function shapeBody(text: string, forms: KindForms | undefined, nowMs: number): string {
  if (!forms) return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(shapeValue(planOf(forms), json, '', '', nowMs));
}

/**
 * The body of an outbound payload of `kind` as the core's forms want it (the text as is when
 * no profile asks for any).
 * @example body: shapeSent(core, 'bot.event.CLIENT_MESSAGE', JSON.stringify(event))
 */
export function shapeSent(
  core: { readonly forms: PayloadForms | undefined; readonly clock: { epochSeconds(): number } },
  kind: string,
  text: string,
): string {
  const kindForms = core.forms?.sent?.[kind];
  return kindForms ? shapeBody(text, kindForms, core.clock.epochSeconds() * 1000) : text;
}

/**
 * The platform's answer to a peer's payload as the forms want it: the learned 2xx status in
 * place of the simulator's, a JSON answer body reshaped.
 */
export function shapeAnswer(
  forms: PayloadForms,
  response: PlatformResponse,
  nowMs: number,
): PlatformResponse {
  const kind = response.record?.kind;
  const answer = kind === undefined ? undefined : forms.answered?.[kind];
  if (!answer || response.stream) return response;
  const success = response.status >= 200 && response.status < 300;
  const status = success && answer.status !== undefined ? answer.status : response.status;
  const body =
    success && response.body !== undefined && typeof response.body !== 'string'
      ? shapeValue(planOf(answer), response.body, '', '', nowMs)
      : response.body;
  return status === response.status && body === response.body
    ? response
    : { ...response, status, body };
}
