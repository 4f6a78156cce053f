import type { PlatformCore } from '../core.js';

/** How many event ids are kept to compare against (a bot's whole test run; a load run's tail). */
const KEPT_IDS = 10_000;

/**
 * Notes the `id` of each event a bot sent the platform (spec 2.5: a unique event id, for
 * logging and debugging) and warns, once per run, when an id comes back on a different event:
 * a bot that hard-codes or reuses its id makes logs that go by it mix two events up. The same
 * id on the same body is a bot's retry and is not said. The event is taken either way.
 * @example const note = createEventIdCheck(core); note({ event: 'BOT_MESSAGE', id: 'e1', ... });
 */
export function createEventIdCheck(core: PlatformCore): (json: Record<string, unknown>) => void {
  const seen = new Map<string, { text: string; what: string }>();
  let warned = false;
  return (json) => {
    const id = json.id;
    if (warned || (typeof id !== 'string' && typeof id !== 'number')) return;
    const key = String(id);
    const text = JSON.stringify(json);
    const what = describe(json);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, { text, what });
      // the oldest id goes first (a Map keeps insertion order)
      if (seen.size > KEPT_IDS) seen.delete(seen.keys().next().value as string);
      return;
    }
    if (first.text === text) return;
    warned = true;
    seen.clear();
    core.emit({
      type: 'notice',
      level: 'warning',
      message: `the bot sent event id ${JSON.stringify(id)} again on a different event (${first.what === what ? `two ${what} with different bodies` : `first ${first.what}, now ${what}`}): an id names one event (spec 2.5), so logs that go by it mix the two up; both were taken`,
      protocolMs: core.clock.now(),
    });
  };
}

/** `BOT_MESSAGE for chat "7"`: the event's name and the chat it named. */
function describe(json: Record<string, unknown>): string {
  const name = typeof json.event === 'string' ? json.event : 'an event';
  const [field, value] =
    json.chat_id === undefined ? ['client', json.client_id] : ['chat', json.chat_id];
  return typeof value === 'string' || typeof value === 'number'
    ? `${name} for ${field} ${value}`
    : name;
}
