import { SvcError } from '../../errors.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import { CONVERSATION_VERSION, RECORDED_BOT_TAG, type ConversationInput } from '../format.js';
import {
  assignedChatOf,
  closedChatOf,
  controlStepOf,
  hookChatId,
  hookEventName,
  hookExpectation,
  hooksSetupOf,
  chatIdOf,
  isHookSent,
  recordedCalls,
  recordId,
} from './hooks.js';
import {
  answerCounts,
  botAnswerTexts,
  botSteps,
  clientMessageNames,
  failedSeriesEnds,
  isBotRecord,
  noMoreAnswers,
  providerIdOf,
} from './bot.js';
import { orderSteps } from './order.js';

/**
 * `record to-fixture`: a recorded session (the journal of `platform --record` or
 * `listen --record`) becomes a conversation fixture that replays green against the
 * embedded simulator. Customer messages -> customer steps; agent messages -> agent steps
 * with delivery expectations and integrator expectations per attempt; the recorded
 * integrator replies -> the embedded listener's fault sequence; hook events -> hook
 * expectations and the embedded hook-target's replies (`hooks.ts`).
 */
export interface ToFixtureOptions {
  records: readonly ExchangeRecord[];
  /** the conversation's name (default: "recorded session") */
  name?: string;
  /**
   * `$schema` as written into the fixture (default ../../schemas/conversation.schema.json);
   * null writes none
   */
  schema?: string | null;
}

type Json = Record<string, unknown>;
type StepInput = ConversationInput['steps'][number];
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function parseBody(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** spec 2.2: message.id identifies a message across redelivery attempts. */
function messageIdOf(body: Json | undefined, seq: number): string {
  const message = body?.message;
  const id = isObject(message) ? message.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : `seq-${seq}`;
}

/**
 * A control step of a later recorded run, with its chat ids (`/_sim/chats/<id>/...`, a
 * body's `chatId`) moved past the chats of the runs before it.
 */
function shiftChatIds(step: StepInput, base: number): StepInput {
  if (!('control' in step)) return step;
  const { path, body } = step.control;
  const shifted = path.replace(
    /^\/_sim\/chats\/(\d+)\//,
    (_m, id: string) => `/_sim/chats/${Number(id) + base}/`,
  );
  const chatId = isObject(body) ? chatIdOf(body.chatId) : undefined;
  const withChat =
    isObject(body) && chatId !== undefined ? { ...body, chatId: chatId + base } : body;
  return {
    ...step,
    control: {
      ...step.control,
      path: shifted,
      ...(withChat === undefined ? {} : { body: withChat }),
    },
  };
}

const isControl = (r: ExchangeRecord): boolean =>
  new URL(r.request.url, 'http://x').pathname.startsWith('/_sim');

/** The fault that makes the embedded listener answer like the recorded integrator did. */
function faultOf(r: ExchangeRecord): string {
  // spec 8: an answer after the 3 s the platform waits is no answer (the proxy notes it, and
  // records the caller giving up first as caller-gone): replay's listener does not answer
  const late = (r.notes ?? []).some((n) => /^over the \d+ ms budget$/.test(n));
  const why = r.failure?.reason;
  if (late || why === 'timeout' || why === 'hang' || why === 'caller-gone') return 'hang';
  if (!r.response) return 'reset';
  if (r.response.status !== 200) return `status:${r.response.status}`;
  const body = parseBody(r.response.body);
  if (body?.result === 'ok') return 'none';
  const error = body?.error;
  if (
    isObject(error) &&
    (typeof error.code === 'string' || typeof error.code === 'number') &&
    typeof error.message === 'string'
  )
    return `error:${String(error.code)}:${error.message}`;
  return 'bad-json';
}

/** spec 2.2: the delivery verdict a series of attempts gave (delivery.ts judges the same way). */
function resultOf(last: ExchangeRecord): 'delivered' | 'error-reply' | 'failed' {
  const fault = faultOf(last);
  if (fault === 'none') return 'delivered';
  return fault.startsWith('error:') ? 'error-reply' : 'failed';
}

/** What a step sends: text, typing, media (spec 2.1, 2.3, 2.4), without message.id. */
function contentOf(
  message: Json,
): { text: string } | { typing: 'start' | 'stop' } | { media: { type: string } & Json } {
  const { id: _id, ...rest } = message;
  if (rest.type === 'text' && typeof rest.text === 'string' && Object.keys(rest).length === 2)
    return { text: rest.text };
  if (rest.type === 'typein' || rest.type === 'typeout')
    return { typing: rest.type === 'typein' ? 'start' : 'stop' };
  return { media: rest as { type: string } & Json };
}

/** The integrator expectation for one attempt: type and text, by message (spec 2.2). */
function integratorExpectation(message: Json, attempt: number, r?: ExchangeRecord): StepInput {
  // an error status is what the integrator did: replayed against it, it is expected again
  const status = r?.response && r.response.status !== 200 ? { $status: r.response.status } : {};
  return {
    expect: {
      integrator: {
        message: {
          type: message.type,
          ...(typeof message.text === 'string' ? { text: message.text } : {}),
        },
        $attempt: attempt,
        ...status,
      },
    },
  };
}

/** An `agents` step for a recorded `POST /_sim/agents {"online": ...}` that was accepted. */
function agentsStepOf(r: ExchangeRecord): StepInput | undefined {
  if (r.request.method !== 'POST') return undefined;
  if (new URL(r.request.url, 'http://x').pathname !== '/_sim/agents') return undefined;
  if (r.response !== undefined && r.response.status >= 300) return undefined;
  const online = parseBody(r.request.body)?.online;
  return typeof online === 'boolean' ? { agents: online ? 'online' : 'offline' } : undefined;
}

function botSetupOf(records: readonly ExchangeRecord[]): { providerId?: string } {
  const providerId = providerIdOf(records);
  return providerId === undefined ? {} : { providerId };
}

/**
 * Converts recorded exchanges into a conversation (format version 1).
 * @example const conversation = convertRecording({ records: await readRecording('session.ndjson') });
 */
export function convertRecording(options: ToFixtureOptions): ConversationInput {
  // `--record` appends: runs keep the order they ran in, and seq counts within a run
  const runOrder = new Map<string | undefined, number>();
  for (const r of options.records) if (!runOrder.has(r.run)) runOrder.set(r.run, runOrder.size);
  const runIndex = (r: ExchangeRecord): number => runOrder.get(r.run) ?? 0;
  const all = [...options.records].sort((a, b) => runIndex(a) - runIndex(b) || a.seq - b.seq);
  const records = all.filter((r) => !isControl(r));
  const steps: StepInput[] = [];
  const sequence: string[] = [];
  const notes: string[] = [];
  const openedFor = new Set<string>();
  let chunked = false;
  // chats open in the order the platform opened them (ids from 1), for chat_finished's close
  const chatOf = new Map<number, string>();
  const openChat = new Map<string, number>();
  const open = (senderId: string): void => {
    if (!openChat.has(senderId)) {
      openChat.set(senderId, chatOf.size + 1);
      chatOf.set(chatOf.size + 1, senderId);
    }
  };
  const closed = new Set<number>();
  const assigned = new Set<number>();
  const hookSent = records.filter(isHookSent);
  const calls = recordedCalls(hookSent, all.filter(isControl));
  const hookSteps: StepInput[] = [];
  // delivery attempts of one agent message, by message.id, in arrival order
  const series = new Map<string, ExchangeRecord[]>();
  const order: string[] = [];
  const agentKind = (r: ExchangeRecord): boolean =>
    r.iface === 'channel' && (r.kind ?? '').startsWith('channel.agent.');
  for (const r of records) {
    if (!agentKind(r)) continue;
    const id = messageIdOf(parseBody(r.request.body), r.seq);
    if (!series.has(id)) {
      series.set(id, []);
      order.push(id);
    }
    series.get(id)?.push(r);
  }
  const emitted = new Set<string>();
  // the bot's answers reach the customer as channel messages: expectations, not agent steps
  const botTexts = botAnswerTexts(records);
  const botAnswered: string[] = [];
  const bot = { failed: failedSeriesEnds(records), names: clientMessageNames(records) };
  let sawBot = false;
  /** a recorded customer, agent or control request: what a replay starts from */
  let driven = false;
  // chat ids of a later run count from 1 again: replay, one platform, counts on
  let run = all[0]?.run;
  let chatBase = 0;
  // hooks replay sends that the recording lacks, by the index of the recorded hook they precede
  const unrecordedHooks = new Map<number, number>();
  let hooksSeen = 0;
  const inReplay = (chatId: number | undefined): number | undefined =>
    chatId === undefined ? undefined : chatId + chatBase;
  for (const r of all) {
    if (r.run !== run) {
      // a new run started a new platform, with no chat open: replay closes the open ones
      run = r.run;
      for (const [customer, chatId] of openChat) {
        closed.add(chatId);
        steps.push({ close: { customer } });
      }
      // each close sends a chat_finished the recording lacks (its platform had stopped)
      if (openChat.size > 0)
        unrecordedHooks.set(hooksSeen, (unrecordedHooks.get(hooksSeen) ?? 0) + openChat.size);
      openChat.clear();
      chatBase = chatOf.size;
    }
    if (isControl(r)) {
      // agents going offline or online changes what follows (an offline form is refused
      // while an agent is online, spec 3): replay sets them the same way
      const agents = agentsStepOf(r);
      if (agents) {
        driven = true;
        steps.push(agents);
        continue;
      }
      const control = controlStepOf(r);
      if (!control) continue;
      driven = true;
      const assignedChat = inReplay(assignedChatOf(r));
      // the CRM link comes with the chat_accepted reply (spec 6.2): in real time (a real
      // receiver) the assign waits until the platform used that reply, as it did when recorded
      if (assignedChat !== undefined && (r.response?.status ?? 0) < 300)
        steps.push({ expect: { event: { type: 'crm-data', chatId: assignedChat } } });
      steps.push(chatBase === 0 ? control : shiftChatIds(control, chatBase));
      if (assignedChat !== undefined) assigned.add(assignedChat);
      const chatId = inReplay(closedChatOf(r));
      if (chatId !== undefined) {
        closed.add(chatId);
        const senderId = chatOf.get(chatId);
        if (senderId !== undefined) openChat.delete(senderId);
      }
      continue;
    }
    if (isHookSent(r)) {
      hooksSeen++;
      const chatId = inReplay(hookChatId(r));
      if (hookEventName(r) === 'chat_finished' && chatId !== undefined && !closed.has(chatId)) {
        // closed in the agent application (console): replay closes it with a close step
        closed.add(chatId);
        const customer = chatOf.get(chatId);
        if (customer !== undefined) openChat.delete(customer);
        steps.push({ close: customer === undefined ? {} : { customer } });
      }
      if (hookEventName(r) === 'chat_assigned' && chatId !== undefined && !assigned.has(chatId)) {
        // linked to the CRM in the agent application (the console's /assign), which leaves no
        // control request in the recording: replay presses the button through the control API
        assigned.add(chatId);
        steps.push({ expect: { event: { type: 'crm-data', chatId } } });
        steps.push({ control: { method: 'POST', path: `/_sim/chats/${chatId}/assign`, body: {} } });
      }
      // a call the agent started in the console: replay starts it through the control API
      const callStep = calls.steps.get(recordId(r));
      if (callStep) steps.push(chatBase === 0 ? callStep : shiftChatIds(callStep, chatBase));
      const expectation = hookExpectation(r, calls.delays.get(recordId(r)));
      if (expectation) hookSteps.push(expectation); // at the end: hooks may overtake their trigger
      continue;
    }
    if (isBotRecord(r)) {
      sawBot = true;
      steps.push(...botSteps(r, bot.failed.has(r), bot.names));
      continue;
    }
    if (r.iface !== 'channel' || r.request.method !== 'POST') continue;
    const body = parseBody(r.request.body);
    if (!agentKind(r)) {
      // the platform served a customer message (spec 4.1); a listen recording has none
      if (r.direction !== 'in') continue;
      const sender = isObject(body?.sender) ? body.sender : undefined;
      const message = isObject(body?.message) ? body.message : undefined;
      const valid = r.kind?.startsWith('channel.customer.') && sender && message;
      // a numeric sender.id (type drift the platform accepts) is sent again exactly as it came
      const senderId = typeof sender?.id === 'number' ? String(sender.id) : sender?.id;
      const customer =
        valid && typeof sender.id !== 'number'
          ? { ...contentOf(message), sender }
          : { raw: body ?? r.request.body };
      if (typeof senderId === 'string') openedFor.add(senderId);
      if (valid && r.response?.status === 200 && typeof senderId === 'string' && senderId)
        open(senderId);
      driven = true;
      steps.push({ customer, ...(r.response ? { response: { status: r.response.status } } : {}) });
      continue;
    }
    driven = true;
    const message: Json = isObject(body?.message) ? body.message : {};
    const id = messageIdOf(body, r.seq);
    if (emitted.has(id)) continue;
    emitted.add(id);
    const attempts = series.get(id) ?? [r];
    const last = attempts[attempts.length - 1] ?? r;
    const to =
      isObject(body?.recipient) && typeof body.recipient.id === 'string'
        ? body.recipient.id
        : undefined;
    if (to !== undefined && !openedFor.has(to)) {
      // a listen recording starts at the agent: open the chat the agent writes in first
      openedFor.add(to);
      open(to);
      steps.push({
        customer: { text: '(opens the chat; not in the recording)', sender: { id: to } },
      });
      notes.push(`customer ${to}: chat opened by a placeholder message`);
    }
    if ((last.notes ?? []).includes('transfer: chunked')) chunked = true;
    for (const attempt of attempts) sequence.push(faultOf(attempt));
    const botAnswer = typeof message.text === 'string' ? botTexts.indexOf(message.text) : -1;
    if (botAnswer >= 0 && typeof message.text === 'string') {
      botTexts.splice(botAnswer, 1);
      botAnswered.push(message.text);
      for (const [i, a] of attempts.entries()) steps.push(integratorExpectation(message, i + 1, a));
      continue;
    }
    const result = resultOf(last);
    steps.push({
      agent: { ...contentOf(message), ...(to === undefined ? {} : { to }) },
      delivery: { result, attempts: result === 'failed' ? 3 : attempts.length },
    });
    for (const [i, a] of attempts.entries()) steps.push(integratorExpectation(message, i + 1, a));
  }
  // a proxy bot / proxy hooks recording holds what the peer got, not what made the platform
  // send it: without a customer message, an agent message or a control request replay has
  // nothing to start with (its first step would be about a chat that does not exist)
  if (!driven) {
    const held = [...new Set(all.map((r) => r.iface))].filter((i) => i !== 'channel');
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not convert the recording: it holds no customer message, agent message or control request${held.length > 0 ? ` (only ${held.join(' and ')} exchanges, as a \`proxy ${held.map((i) => (i === 'hook' ? 'hooks' : i)).join('/')}\` recording holds)` : ''}, so a replay would have nothing to start its chats with.`,
      'Record the platform side instead: `svc-cli platform --record session.ndjson --hook-url <your receiver, or the proxy>` (--bot-provider-url for a bot), send messages through it, and convert that file.',
    );
  }
  if (sawBot) {
    steps.push(...noMoreAnswers(botAnswered), ...answerCounts(records, bot.names));
    notes.push(
      'The bot traffic was recorded from a real bot: replay it against that bot with --bot-url <its URL> --platform-port <the port it posts to>.',
    );
  }
  // then the order things came in, one run's worth (a real bot's answers need that bot)
  steps.push(...hookSteps, ...orderSteps(runOrder.size === 1 && !sawBot ? records : []));
  if (runOrder.size > 1)
    notes.push(
      `The recording holds ${runOrder.size} runs (--record appends): they replay one after the other, and the chats a run left open are closed before the next.`,
    );
  const hooks = hookSent.length > 0 ? hooksSetupOf(hookSent, notes, unrecordedHooks) : undefined;
  const faults = sequence.some((f) => f !== 'none') ? { sequence } : undefined;
  return {
    ...(options.schema === null
      ? {}
      : { $schema: options.schema ?? '../../schemas/conversation.schema.json' }),
    version: CONVERSATION_VERSION,
    name: options.name ?? 'recorded session',
    description: ['Converted by `svc-cli record to-fixture`.', ...notes].join(' '),
    tags: sawBot ? ['recorded', RECORDED_BOT_TAG] : ['recorded'],
    ...(faults || chunked || hooks || sawBot
      ? {
          setup: {
            ...(sawBot ? { bot: botSetupOf(all) } : {}),
            ...(chunked ? { channel: { chunked: true } } : {}),
            ...(faults ? { integrator: { faults } } : {}),
            ...(hooks ? { hooks } : {}),
          },
        }
      : {}),
    steps,
  };
}
