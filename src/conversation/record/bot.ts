import type { ExchangeRecord } from '../../journal/journal.js';
import type { ConversationInput } from '../format.js';
import { countBotAnswers, sentBotEvents } from '../bot-answers.js';
import { parseJson } from './hooks.js';
import { isInProcessUrl } from '../../http/in-process.js';
import { SVC_ROLE_HEADER } from '../../http/role-header.js';

/**
 * The bot half of `record to-fixture` (spec 4.3, 6.1, 8): what the platform sent a real bot
 * (each attempt, with the status it got) becomes `bot` expectations; what the bot sent back
 * (BOT_MESSAGE, INVITE_AGENT) and what the platform did with it (the answer delivered to the
 * customer, a hand-over after INVITE_AGENT or two failed attempts) becomes `event` and
 * `integrator` expectations. The bot's answers are not agent steps: no agent wrote them.
 * An answer recorded once is expected once: a second one is red.
 */
type Json = Record<string, unknown>;
type StepInput = ConversationInput['steps'][number];

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** protocol ms a second answer to one customer message would come within (spec 8: 2 x 3 s) */
export const DUPLICATE_WINDOW_MS = 7000;

export const isBotRecord = (r: ExchangeRecord): boolean => r.iface === 'bot';

/** What the customer sees of a BOT_MESSAGE (spec 2.5: TEXT's text, else the fallback text). */
function answerText(body: Json): string | undefined {
  const message = body.message;
  return isObject(message) && typeof message.text === 'string' ? message.text : undefined;
}

/** The texts of the bot's accepted BOT_MESSAGEs, in order: their channel deliveries are the bot's. */
export function botAnswerTexts(records: readonly ExchangeRecord[]): string[] {
  const texts: string[] = [];
  for (const r of records) {
    if (r.iface !== 'bot' || r.direction !== 'in' || r.response?.status !== 200) continue;
    const body = parseJson(r.request.body);
    if (isObject(body) && body.event === 'BOT_MESSAGE') {
      const text = answerText(body);
      if (text !== undefined) texts.push(text);
    }
  }
  return texts;
}

/** The provider id the bot posted to (`/webhooks/<provider_id>/<token>`), when recorded. */
export function providerIdOf(records: readonly ExchangeRecord[]): string | undefined {
  for (const r of records) {
    if (r.iface !== 'bot' || r.direction !== 'in') continue;
    const match = /\/(?:webhooks|providers)\/([^/]+)\/[^/]+$/.exec(
      new URL(r.request.url, 'http://x').pathname,
    );
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return undefined;
}

/**
 * The steps one bot record gives, in the order it came. `failedSeries` tells whether the
 * platform's series of this event ended without a regular answer (spec 8: then it hands over).
 */
export function botSteps(
  r: ExchangeRecord,
  lastOfFailedSeries: boolean,
  /** step names of the CLIENT_MESSAGEs, by event id (`clientMessageNames`) */
  names: ReadonlyMap<string, string> = new Map(),
  /** the CLIENT_MESSAGE step that names each client id (`clientRefNames`) */
  clientRefs: ReadonlyMap<string, string> = new Map(),
): StepInput[] {
  const body = parseJson(r.request.body);
  if (!isObject(body) || typeof body.event !== 'string') return [];
  // the recording stopped in the middle of the attempt: nothing the bot did
  if (r.failure?.reason === 'interrupted') return [];
  if (r.direction === 'out') {
    // what the platform sent the bot, attempt by attempt, and the status the bot answered
    const text = answerText(body);
    // the first attempt is named: the `answers` count at the end refers to its id
    const name = (r.attempt ?? 1) === 1 ? names.get(String(body.id)) : undefined;
    const steps: StepInput[] = [
      {
        ...(name === undefined ? {} : { name }),
        expect: {
          bot: {
            event: body.event,
            ...(text === undefined ? {} : { message: { text } }),
            $attempt: r.attempt ?? 1,
            ...(r.response ? { $status: r.response.status } : {}),
          },
        },
      },
    ];
    if (lastOfFailedSeries && body.event === 'CLIENT_MESSAGE')
      steps.push({ expect: { event: { type: 'bot-handover' } } });
    return steps;
  }
  if (r.response?.status !== 200) return [];
  if (body.event === 'INVITE_AGENT') return [{ expect: { event: { type: 'bot-handover' } } }];
  if (body.event === 'BOT_MESSAGE') {
    const text = answerText(body);
    return text === undefined
      ? []
      : [{ expect: { event: { type: 'bot-message', text: withClientRefs(text, clientRefs) } } }];
  }
  return [];
}

/**
 * The step name of the first CLIENT_MESSAGE sent about each client (`client_id`, spec 2.5),
 * whose value holds the client id the replay gave: what a reference to it reads.
 */
export function clientRefNames(
  records: readonly ExchangeRecord[],
  names: ReadonlyMap<string, string>,
): Map<string, string> {
  const refs = new Map<string, string>();
  for (const event of sentBotEvents(records)) {
    const name = names.get(event.id);
    const body = parseJson(event.body);
    const id = isObject(body) ? body.client_id : undefined;
    if (name === undefined || (typeof id !== 'string' && typeof id !== 'number')) continue;
    if (!refs.has(String(id))) refs.set(String(id), name);
  }
  return refs;
}

/**
 * A bot answer's text with each recorded client id in it written as a reference to the
 * CLIENT_MESSAGE that carried it (`${client-message-1.client_id}`). A bot that puts the client
 * id into a link ("...?apple_id=501") answers the next run's fresh client (52864501) with
 * that one: the literal text failed against the very bot it was recorded from. Only ids of
 * three digits or more, standing alone (not inside a longer number), are written so.
 * @example withClientRefs('a?id=501', new Map([['501', 'client-message-1']])) // 'a?id=${client-message-1.client_id}'
 */
export function withClientRefs(text: string, refs: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [id, name] of refs) {
    if (!/^\d{3,}$/.test(id)) continue;
    out = out.replace(new RegExp(`(?<!\\d)${id}(?!\\d)`, 'g'), `\${${name}.client_id}`);
  }
  return out;
}

/** After the recorded answers: no further answer with the same text (a duplicate is red). */
export function noMoreAnswers(
  texts: readonly string[],
  clientRefs: ReadonlyMap<string, string> = new Map(),
): StepInput[] {
  return [...new Set(texts)].map((text) => ({
    expect: {
      event: { type: 'bot-message', text: withClientRefs(text, clientRefs) },
      absent: true,
      within: DUPLICATE_WINDOW_MS,
    },
  }));
}

/** Whether a bot event's series (by its `id`, spec 2.5) ended without a 200. */
export function failedSeriesEnds(records: readonly ExchangeRecord[]): Set<ExchangeRecord> {
  const last = new Map<string, ExchangeRecord>();
  for (const r of records) {
    if (r.iface !== 'bot' || r.direction !== 'out') continue;
    // an attempt the recording's end interrupted did not end its series
    if (r.failure?.reason === 'interrupted') continue;
    const body = parseJson(r.request.body);
    if (isObject(body) && typeof body.id === 'string') last.set(body.id, r);
  }
  return new Set([...last.values()].filter((r) => r.response?.status !== 200));
}

/** The step name of each CLIENT_MESSAGE the platform sent the bot, by event id, in order. */
export function clientMessageNames(records: readonly ExchangeRecord[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const event of sentBotEvents(records))
    if (event.event === 'CLIENT_MESSAGE') names.set(event.id, `client-message-${names.size + 1}`);
  return names;
}

/**
 * After the recorded traffic: how many times the bot answered each CLIENT_MESSAGE (every
 * attempt of its id), as recorded. A bot that starts answering a redelivery again is red
 * even when its second answer has other words than its first; one that stops answering too.
 */
export function answerCounts(
  records: readonly ExchangeRecord[],
  names: ReadonlyMap<string, string>,
): StepInput[] {
  return sentBotEvents(records)
    .filter((event) => names.has(event.id))
    .map((event, index) => ({
      expect: {
        answers: {
          to: `\${${names.get(event.id)}.id}`,
          count: countBotAnswers(records, event).accepted.length,
        },
        // a second answer comes within the series' time; after the first count, no more wait
        within: index === 0 ? DUPLICATE_WINDOW_MS : 0,
      },
    }));
}

/**
 * Who answered the platform's bot events, as far as the recording shows: `none` (no event
 * sent), `bot-sim` (svc-cli's own: the embedded one of a `replay --record` answers in process,
 * a `svc-cli bot-sim` on a socket names itself in its replies' `x-svc-role`) answering every
 * attempt 200, `bot-sim-failing` (it failed some: a fault plan or script the recording does not
 * name), else `other` (a real bot, or a recording from before replies named their role).
 * @example botSideOf(records) // 'bot-sim'
 */
export function botSideOf(
  records: readonly ExchangeRecord[],
): 'none' | 'bot-sim' | 'bot-sim-failing' | 'other' {
  const sent = records.filter(
    (r) => r.iface === 'bot' && r.direction === 'out' && r.failure?.reason !== 'interrupted',
  );
  if (sent.length === 0) return records.some(isBotRecord) ? 'other' : 'none';
  const botSim = sent.every(
    (r) => isInProcessUrl(r.request.url) || r.response?.headers?.[SVC_ROLE_HEADER] === 'bot-sim',
  );
  if (!botSim) return 'other';
  return sent.every((r) => r.response?.status === 200) ? 'bot-sim' : 'bot-sim-failing';
}
