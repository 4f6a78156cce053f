import { CLIENT_ID_OFFSET } from '../platform/model.js';
import type { Conversation, Step } from './format.js';

/**
 * Fresh ids per replay against a real peer. A peer with a database remembers chat 1 and
 * client 501 from the last run (or from the recording the fixture came from) and may answer an
 * old chat differently (no greeting, a "chat closed" reply); the spec makes chat and client
 * ids unique within the account (spec 2.5, 6.2), so each run takes its own block, as
 * `conform bot` does: run id R numbers chats from R * 1000 + 1 and clients from R * 1000 + 501.
 * Client ids are strings of digits (docs/FIDELITY.md): a bot may keep them in an integer column.
 */

/** Chats (and visitors) per run id: a conversation opens fewer. */
export const CHATS_PER_RUN = 1000;

/** The platform's id settings (createPlatform's `ids`) for one run id. */
export function runIds(runId: number): { firstChatId: number; firstClientId: number } {
  const first = runId * CHATS_PER_RUN + 1;
  return { firstChatId: first, firstClientId: first + CLIENT_ID_OFFSET };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const CHAT_KEYS = new Set(['chatId', 'chat_id']);

/** A literal chat id moved by `offset`: a number, or a string of digits; anything else kept. */
function shiftId(value: unknown, offset: number): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return value + offset;
  if (typeof value === 'string' && /^\d+$/.test(value)) return String(Number(value) + offset);
  return value;
}

/** Every `chatId` / `chat_id` literal below `value` moved by `offset` (references stay). */
function shiftDeep(value: unknown, offset: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shiftDeep(item, offset));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      CHAT_KEYS.has(key) ? shiftId(item, offset) : shiftDeep(item, offset),
    ]),
  );
}

const CHAT_PATH = /(\/_sim\/chats\/)(\d+)(?=\/|$|\?)/g;

function shiftStep(step: Step, offset: number): Step {
  // what the customer sends is the fixture's own body (a raw one may be anything): kept
  if ('customer' in step) return step;
  if ('control' in step) {
    const control = {
      ...step.control,
      path: step.control.path.replace(
        CHAT_PATH,
        (_m, prefix: string, id: string) => `${prefix}${Number(id) + offset}`,
      ),
      ...(step.control.body === undefined ? {} : { body: shiftDeep(step.control.body, offset) }),
    };
    return {
      ...step,
      control,
      ...(step.response === undefined ? {} : { response: shiftDeep(step.response, offset) }),
    } as Step;
  }
  return shiftDeep(step, offset) as Step;
}

/**
 * The conversation with the literal chat ids it names (control paths `/_sim/chats/<id>/...`,
 * `chatId` and `chat_id` in bodies, verdicts and expectations) moved into run `runId`'s block,
 * so a fixture recorded with chats from 1 replays against chats from `runId * 1000 + 1`.
 * `${name.path}` references are kept: they resolve to the ids the run gave.
 * @example shiftChatIds(conversation, 42).steps // "/_sim/chats/1/assign" -> "/_sim/chats/42001/assign"
 */
export function shiftChatIds(conversation: Conversation, runId: number): Conversation {
  const offset = runId * CHATS_PER_RUN;
  if (offset === 0) return conversation;
  return { ...conversation, steps: conversation.steps.map((step) => shiftStep(step, offset)) };
}
