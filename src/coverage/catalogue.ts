/**
 * What a run can exercise, derived from the contract as code: the payload kinds of the
 * registry, each kind's fields read from its JSON Schema (optional fields, closed value
 * sets, the fields that may arrive as another JSON type), the statuses of the operation
 * table, the bot error codes and the delivery policies. Nothing here is a hand-kept list:
 * a kind, a field or a status added to the contract is a coverage item on the next run.
 */
import { KINDS } from '../contract/registry.js';
import { API_OPERATIONS } from '../contract/api-docs/operations.js';
import { BOT_ERROR_CODES } from '../contract/bot.js';
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  type DeliveryPolicy,
} from '../platform/delivery.js';
import { fieldRows } from '../reference/fields.js';

/** The interfaces, as the contract names them: A channel, B bot, C widget, D hooks. */
export const COVERAGE_INTERFACES = ['A', 'B', 'C', 'D'] as const;
export type CoverageInterface = (typeof COVERAGE_INTERFACES)[number];

export const INTERFACE_NAMES: Readonly<Record<CoverageInterface, string>> = {
  A: 'chat channel',
  B: 'bot',
  C: 'widget',
  D: 'event hooks',
};

export const COVERAGE_CATEGORIES = [
  'kinds',
  'values',
  'optional fields',
  'forms',
  'statuses',
  'error bodies',
  'timing',
  'flows',
  'hook replies',
] as const;
export type CoverageCategory = (typeof COVERAGE_CATEGORIES)[number];

/** One thing the contract defines that a run may or may not exercise. */
export interface CoverageItem {
  /** stable id: `kind:bot.event.AGENT_JOINED`, `field:channel.customer:sender.name:absent` */
  id: string;
  iface: CoverageInterface;
  category: CoverageCategory;
  /** what it is, in words */
  label: string;
  /** the contract section it comes from */
  spec: string;
}

/**
 * The field family a kind's fields are counted under: the channel's media kinds share their
 * sender and media fields, every hook event shares the 2.6 objects; other kinds stand alone.
 * One item per family and field keeps "sender.name absent" one line, not nine.
 */
export function familyOf(kind: string): string {
  if (kind.startsWith('channel.customer.')) return 'channel.customer';
  if (kind.startsWith('channel.agent.')) return 'channel.agent';
  if (kind.startsWith('hook.') && !kind.endsWith('.reply')) return 'hook events';
  return kind;
}

/** The delivery policy of each interface the platform redelivers on (spec 8). */
export const DELIVERY_POLICIES: ReadonlyArray<{
  iface: CoverageInterface;
  name: 'channel' | 'bot' | 'hook';
  policy: DeliveryPolicy;
  spec: string;
}> = [
  { iface: 'A', name: 'channel', policy: CHANNEL_DELIVERY_POLICY, spec: '8' },
  { iface: 'B', name: 'bot', policy: BOT_DELIVERY_POLICY, spec: '8' },
  { iface: 'D', name: 'hook', policy: HOOK_DELIVERY_POLICY, spec: '6.2' },
];

/** The type a drifting field may also arrive as (an id as a number, a count as a string). */
export function otherTypeOf(types: readonly string[]): string {
  return types.includes('string') ? 'number' : 'string';
}

const ordinal = (n: number): string =>
  n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;

function fieldItems(items: CoverageItem[]): void {
  const seen = new Set<string>();
  const push = (item: CoverageItem): void => {
    if (seen.has(item.id)) return;
    seen.add(item.id);
    items.push(item);
  };
  for (const [kind, entry] of KINDS) {
    const family = familyOf(kind);
    const iface = entry.interface;
    const reply = kind.startsWith('hook.') && kind.endsWith('.reply');
    for (const row of fieldRows(kind)) {
      const at = `${family}: ${row.path}`;
      if (row.values.length > 1) {
        for (const value of row.values) {
          push({
            id: `value:${family}:${row.path}=${value}`,
            iface,
            category: reply ? 'hook replies' : 'values',
            label: `${at} = ${value}`,
            spec: entry.spec,
          });
        }
      }
      if (!row.required) {
        const states = row.nullable ? ['present', 'absent', 'null'] : ['present', 'absent'];
        for (const state of states) {
          push({
            id: `field:${family}:${row.path}:${state}`,
            iface,
            category: reply ? 'hook replies' : 'optional fields',
            label: `${at} ${state}`,
            spec: entry.spec,
          });
        }
      }
      if (row.drift) {
        const declared = row.types.includes('string') ? 'string' : 'number';
        for (const type of [declared, otherTypeOf(row.types)]) {
          push({
            id: `form:${family}:${row.path}:${type}`,
            iface,
            category: 'forms',
            label: `${at} as a ${type}`,
            spec: entry.spec,
          });
        }
      }
    }
  }
}

/** Every coverage item, grouped by interface in contract order. Built once per process. */
let built: readonly CoverageItem[] | undefined;
export function coverageItems(): readonly CoverageItem[] {
  if (built) return built;
  const items: CoverageItem[] = [];
  for (const [kind, entry] of KINDS) {
    items.push({
      id: `kind:${kind}`,
      iface: entry.interface,
      category: 'kinds',
      label: `${kind} (${entry.direction})`,
      spec: entry.spec,
    });
  }
  fieldItems(items);
  // spec 2.5: a bot message's timestamp is unix time; seconds and milliseconds both occur
  for (const unit of ['seconds', 'milliseconds'] as const) {
    items.push({
      id: `timestamp:bot:${unit}`,
      iface: 'B',
      category: 'forms',
      label: `bot message timestamp in ${unit}`,
      spec: '2.5',
    });
  }
  for (const op of API_OPERATIONS) {
    for (const status of Object.keys(op.responses)) {
      if (status === 'default') continue;
      items.push({
        id: `status:${op.id}:${status}`,
        iface: op.iface,
        category: 'statuses',
        label: `${op.method.toUpperCase()} ${op.path} (${op.id}) answered ${status}`,
        spec: op.spec[0] ?? '4',
      });
    }
  }
  // spec 2.2, 4.2: the integrator's reply is {result} or {error:{code,message}}
  items.push({
    id: 'error:channel.integrator.reply:error-object',
    iface: 'A',
    category: 'error bodies',
    label: 'integrator replied with an error object {error:{code,message}}',
    spec: '2.2',
  });
  items.push({
    id: 'error:channel.customer:rejected',
    iface: 'A',
    category: 'error bodies',
    label: 'platform refused a customer message with an error body',
    spec: '4.1',
  });
  for (const code of BOT_ERROR_CODES) {
    items.push({
      id: `error:bot:${code}`,
      iface: 'B',
      category: 'error bodies',
      label: `bot endpoint answered error ${code}`,
      spec: '7.2',
    });
  }
  for (const { iface, name, policy, spec } of DELIVERY_POLICIES) {
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      items.push({
        id: `timing:${name}:attempt-${attempt}`,
        iface,
        category: 'timing',
        label: `${name} delivery accepted on the ${ordinal(attempt)} attempt`,
        spec,
      });
    }
    items.push({
      id: `timing:${name}:failed`,
      iface,
      category: 'timing',
      label: `${name} delivery failed after ${policy.attempts} ${policy.attempts === 1 ? 'attempt' : 'attempts'}`,
      spec,
    });
  }
  // spec 4.2: the platform's requests use a Content-Length body or chunked encoding
  for (const framing of ['content-length', 'chunked'] as const) {
    items.push({
      id: `timing:channel:${framing}`,
      iface: 'A',
      category: 'timing',
      label: `agent message sent with ${framing === 'chunked' ? 'chunked encoding' : 'Content-Length'}`,
      spec: '4.2',
    });
  }
  // spec 3, 6.1: after CLIENT_MESSAGE the bot answers or hands over; a silent bot is handed over
  items.push(
    {
      id: 'flow:bot:answer',
      iface: 'B',
      category: 'flows',
      label: 'bot answered (BOT_MESSAGE accepted)',
      spec: '6.1',
    },
    {
      id: 'flow:bot:invite',
      iface: 'B',
      category: 'flows',
      label: 'bot handed over (INVITE_AGENT accepted)',
      spec: '6.1',
    },
    {
      id: 'flow:bot:timeout-handover',
      iface: 'B',
      category: 'flows',
      label: 'bot gave no regular answer: handed over after the attempts (spec 3)',
      spec: '3',
    },
    {
      id: 'flow:channel:text-cut',
      iface: 'A',
      category: 'flows',
      label: 'customer text over 1000 characters cut',
      spec: '8',
    },
  );
  built = items;
  return items;
}
