import { plural } from '../../plural.js';
import { SvcError } from '../../errors.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import { NOT_FORWARDED_NOTE } from '../../journal/record.js';
import { platformTimedOut, recordedByPeer } from '../../journal/platform-view.js';
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
  isHookFailed,
  isHookSent,
  recordedCalls,
  recordId,
} from './hooks.js';
import {
  answerCounts,
  botAnswerTexts,
  botSideOf,
  botSteps,
  clientMessageNames,
  clientRefNames,
  failedSeriesEnds,
  isBotRecord,
  noMoreAnswers,
  withClientRefs,
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
  /**
   * The integrator's refused attempts and the hook receiver's failed replies in the
   * recording: `keep` expects them again (the embedded peers play them), `drop` writes the
   * conversation for a peer that accepts at once (default keep)
   */
  peerFailures?: PeerFailures;
}

export type PeerFailures = 'keep' | 'drop';

/** How many of the peers' failures a conversion kept or left out (the command says so). */
export interface PeerFailureCount {
  /** refused delivery attempts of agent messages (spec 2.2, 8) */
  integrator: number;
  /** hook events the receiver failed (spec 6.2) */
  hooks: number;
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

/** spec 2.2: message.id identifies a message across redelivery attempts, where it is sent. */
function explicitMessageIdOf(body: Json | undefined): string | undefined {
  const message = body?.message;
  const id = isObject(message) ? message.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
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
  // a peer's own record of a reply it took the platform's whole wait to give (listen
  // --fault slow-body): the platform timed out on it, as its own recording says
  if (platformTimedOut(r)) return 'hang';
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

/** spec 2.2: an attempt the platform counts as refused (an error reply is an answer). */
function isRefused(r: ExchangeRecord): boolean {
  const fault = faultOf(r);
  return fault !== 'none' && !fault.startsWith('error:');
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

type AgentsState = 'online' | 'offline';

/** An `agents` step for a recorded `POST /_sim/agents {"online": ...}` that was accepted. */
function agentsStepOf(r: ExchangeRecord): { agents: AgentsState } | undefined {
  if (r.request.method !== 'POST') return undefined;
  if (new URL(r.request.url, 'http://x').pathname !== '/_sim/agents') return undefined;
  if (r.response !== undefined && r.response.status >= 300) return undefined;
  const online = parseBody(r.request.body)?.online;
  return typeof online === 'boolean' ? { agents: online ? 'online' : 'offline' } : undefined;
}

/**
 * How the agents stood when each run began (one pass over the records), from what the
 * platform did before anything set them: an offline form it took (spec 3: only while no
 * agent is online) or refused, an offline_message hook it sent, or a CLIENT_MESSAGE's
 * agents_online. A run missing from the map showed nothing: replay starts with agents
 * online, as the platform does.
 */
function agentsAtStartOf(all: readonly ExchangeRecord[]): Map<string | undefined, AgentsState> {
  const known = new Map<string | undefined, AgentsState>();
  /** runs whose agents were set before anything showed how they stood */
  const settled = new Set<string | undefined>();
  for (const r of all) {
    if (known.has(r.run) || settled.has(r.run)) continue;
    const state = agentsShownBy(r);
    if (state === 'set') settled.add(r.run);
    else if (state !== undefined) known.set(r.run, state);
  }
  return known;
}

/** How the agents stood, as one record shows it; 'set' for a record that sets them. */
function agentsShownBy(r: ExchangeRecord): AgentsState | 'set' | undefined {
  if (agentsStepOf(r)) return 'set';
  const path = new URL(r.request.url, 'http://x').pathname;
  if (isControl(r) && r.request.method === 'POST' && path === '/_sim/visitor/offline-message') {
    const status = r.response?.status;
    if (status === undefined) return undefined;
    if (status < 300) return 'offline';
    return status === 409 ? 'online' : undefined;
  }
  const body = parseBody(r.request.body);
  if (isHookSent(r) && body?.event_name === 'offline_message') return 'offline';
  if (isBotRecord(r) && r.direction === 'out' && body?.event === 'CLIENT_MESSAGE') {
    const online = body.agents_online;
    if (typeof online === 'boolean') return online ? 'online' : 'offline';
  }
  return undefined;
}

function botSetupOf(records: readonly ExchangeRecord[]): { providerId?: string } {
  const providerId = providerIdOf(records);
  return providerId === undefined ? {} : { providerId };
}

/** `--record` appends: runs keep the order they ran in, and seq counts within a run. */
function inRunOrder(records: readonly ExchangeRecord[]): {
  all: ExchangeRecord[];
  runs: number;
} {
  const runOrder = new Map<string | undefined, number>();
  for (const r of records) if (!runOrder.has(r.run)) runOrder.set(r.run, runOrder.size);
  const runIndex = (r: ExchangeRecord): number => runOrder.get(r.run) ?? 0;
  const all = [...records].sort((a, b) => runIndex(a) - runIndex(b) || a.seq - b.seq);
  return { all, runs: runOrder.size };
}

const isAgentMessage = (r: ExchangeRecord): boolean =>
  r.iface === 'channel' && (r.kind ?? '').startsWith('channel.agent.');

/** The delivery attempts of each agent message in arrival order, and each record's series. */
interface AgentSeries {
  byId: Map<string, ExchangeRecord[]>;
  idOf: Map<ExchangeRecord, string>;
}

/**
 * The delivery attempts of each agent message: by message.id (spec 2.2: one id across its
 * attempts); a message without one (a platform that sends none) by the same body to the same
 * URL in one run, an attempt joining the series before it while that series is open: its
 * recorded attempt number is past 1, or, where none was recorded (a HAR from elsewhere), the
 * attempt before it was refused (spec 8: only a refused attempt is delivered again). The same
 * text sent again after an accepted attempt is a message of its own.
 */
function agentSeries(records: readonly ExchangeRecord[]): AgentSeries {
  const byId = new Map<string, ExchangeRecord[]>();
  const idOf = new Map<ExchangeRecord, string>();
  const lastOfBody = new Map<string, string>();
  for (const r of records) {
    if (!isAgentMessage(r)) continue;
    let id = explicitMessageIdOf(parseBody(r.request.body));
    if (id === undefined) {
      const same = `${r.run ?? ''}\u0000${r.request.url}\u0000${r.request.body ?? ''}`;
      const prior = lastOfBody.get(same);
      const before = prior === undefined ? undefined : byId.get(prior)?.at(-1);
      const continues =
        before !== undefined &&
        (r.attempt !== undefined
          ? r.attempt > 1
          : before.attempt === undefined && isRefused(before));
      id = continues && prior !== undefined ? prior : `seq-${r.run ?? ''}-${r.seq}`;
      lastOfBody.set(same, id);
    }
    idOf.set(r, id);
    const attempts = byId.get(id);
    if (attempts) attempts.push(r);
    else byId.set(id, [r]);
  }
  return { byId, idOf };
}

/** What a conversion has gathered so far, walking the records in the order they ran. */
interface Conversion {
  /** every record, runs in the order they ran */
  all: ExchangeRecord[];
  /** the records without control requests */
  records: ExchangeRecord[];
  runs: number;
  steps: StepInput[];
  /** the embedded listener's answers, one per delivery attempt */
  sequence: string[];
  notes: string[];
  openedFor: Set<string>;
  chunked: boolean;
  // chats open in the order the platform opened them (ids from 1), for chat_finished's close
  chatOf: Map<number, string>;
  openChat: Map<string, number>;
  closed: Set<number>;
  assigned: Set<number>;
  hookSent: ExchangeRecord[];
  calls: ReturnType<typeof recordedCalls>;
  /** hook expectations, written at the end: hooks may overtake their trigger */
  hookSteps: StepInput[];
  series: AgentSeries;
  /** the agent messages already written, by their series' id */
  emitted: Set<string>;
  // the bot's answers reach the customer as channel messages: expectations, not agent steps
  botTexts: string[];
  botAnswered: string[];
  bot: {
    failed: ReturnType<typeof failedSeriesEnds>;
    names: ReturnType<typeof clientMessageNames>;
    /** the CLIENT_MESSAGE step naming each client id, for the bot's answers that hold it */
    clientRefs: ReturnType<typeof clientRefNames>;
  };
  /** who answered the bot events: svc-cli's bot-sim runs again embedded, another bot does not */
  botSide: ReturnType<typeof botSideOf>;
  sawBot: boolean;
  /** a recorded customer, agent or control request: what a replay starts from */
  driven: boolean;
  // chat ids of a later run count from 1 again: replay, one platform, counts on
  run: string | undefined;
  chatBase: number;
  // hooks replay sends that the recording lacks, by the index of the recorded hook they precede
  unrecordedHooks: Map<number, number>;
  hooksSeen: number;
  /** how the agents stand at this point of the replay: set up, then by the agents steps */
  agents: AgentsState;
  /** how they stood when the recording began (setup.agents), when it shows it */
  agentsAtStart: AgentsState | undefined;
  /** how they stood when each run began, where it shows */
  agentsByRun: ReadonlyMap<string | undefined, AgentsState>;
  /** keep or drop the peers' failures (ToFixtureOptions.peerFailures) */
  peerFailures: PeerFailures;
  /** the peers' failures met, kept or left out */
  failures: PeerFailureCount;
}

/** The bot's series that failed and the names its CLIENT_MESSAGE steps get. */
function botNamesOf(records: readonly ExchangeRecord[]): Conversion['bot'] {
  const names = clientMessageNames(records);
  return {
    failed: failedSeriesEnds(records),
    names,
    clientRefs: clientRefNames(records, names),
  };
}

/**
 * The client references a step written now may use: those whose CLIENT_MESSAGE step is
 * written already (a reference to a later step reads nothing when the replay reaches it).
 */
function namedSoFar(c: Conversion): Map<string, string> {
  const written = new Set(c.steps.map((step) => ('name' in step ? step.name : undefined)));
  return new Map([...c.bot.clientRefs].filter(([, name]) => written.has(name)));
}

/** The state a conversion starts from: the records in run order, nothing written yet. */
function startConversion(
  input: readonly ExchangeRecord[],
  peerFailures: PeerFailures = 'keep',
): Conversion {
  const { all, runs } = inRunOrder(input);
  const records = all.filter((r) => !isControl(r));
  const hookSent = records.filter(isHookSent);
  const agentsByRun = agentsAtStartOf(all);
  const agentsAtStart = agentsByRun.get(all[0]?.run);
  return {
    all,
    records,
    runs,
    steps: [],
    sequence: [],
    notes: [],
    openedFor: new Set(),
    chunked: false,
    chatOf: new Map(),
    openChat: new Map(),
    closed: new Set(),
    assigned: new Set(),
    hookSent,
    calls: recordedCalls(hookSent, all.filter(isControl)),
    hookSteps: [],
    series: agentSeries(records),
    emitted: new Set(),
    botTexts: botAnswerTexts(records),
    botAnswered: [],
    bot: botNamesOf(records),
    sawBot: false,
    botSide: botSideOf(all),
    driven: false,
    run: all[0]?.run,
    chatBase: 0,
    unrecordedHooks: new Map(),
    hooksSeen: 0,
    agents: agentsAtStart ?? 'online',
    agentsAtStart,
    agentsByRun,
    peerFailures,
    failures: { integrator: 0, hooks: 0 },
  };
}

/** The platform opens a chat for a customer's first delivered message (ids from 1). */
function openChatFor(c: Conversion, senderId: string): void {
  if (!c.openChat.has(senderId)) {
    c.openChat.set(senderId, c.chatOf.size + 1);
    c.chatOf.set(c.chatOf.size + 1, senderId);
  }
}

/** A recorded chat id as replay's one platform numbers it. */
const inReplay = (c: Conversion, chatId: number | undefined): number | undefined =>
  chatId === undefined ? undefined : chatId + c.chatBase;

/** A control step, its chat ids moved past the earlier runs' chats. */
const inThisRun = (c: Conversion, step: StepInput): StepInput =>
  c.chatBase === 0 ? step : shiftChatIds(step, c.chatBase);

/** A new run started a new platform, with no chat open: replay closes the open ones. */
function startRun(c: Conversion, run: string | undefined): void {
  c.run = run;
  for (const [customer, chatId] of c.openChat) {
    c.closed.add(chatId);
    c.steps.push({ close: { customer } });
  }
  // each close sends a chat_finished the recording lacks (its platform had stopped)
  if (c.openChat.size > 0)
    c.unrecordedHooks.set(c.hooksSeen, (c.unrecordedHooks.get(c.hooksSeen) ?? 0) + c.openChat.size);
  c.openChat.clear();
  c.chatBase = c.chatOf.size;
  // the run's platform started its agents as its setup said; replay's one platform has them
  // as the last run left them
  const agents = c.agentsByRun.get(run);
  if (agents !== undefined && agents !== c.agents) {
    c.agents = agents;
    c.steps.push({ agents });
  }
}

/** A control request: agents online/offline, or a control step (assign, close, call ...). */
function convertControl(c: Conversion, r: ExchangeRecord): void {
  // agents going offline or online changes what follows (an offline form is refused
  // while an agent is online, spec 3): replay sets them the same way
  const agents = agentsStepOf(r);
  if (agents) {
    c.driven = true;
    c.agents = agents.agents;
    c.steps.push(agents);
    return;
  }
  const control = controlStepOf(r);
  if (!control) return;
  c.driven = true;
  const assignedChat = inReplay(c, assignedChatOf(r));
  // the CRM link comes with the chat_accepted reply (spec 6.2): in real time (a real
  // receiver) the assign waits until the platform used that reply, as it did when recorded
  if (assignedChat !== undefined && (r.response?.status ?? 0) < 300)
    c.steps.push({ expect: { event: { type: 'crm-data', chatId: assignedChat } } });
  c.steps.push(inThisRun(c, control));
  if (assignedChat !== undefined) c.assigned.add(assignedChat);
  const chatId = inReplay(c, closedChatOf(r));
  if (chatId !== undefined) {
    c.closed.add(chatId);
    const senderId = c.chatOf.get(chatId);
    if (senderId !== undefined) c.openChat.delete(senderId);
  }
}

/**
 * A hook the platform sent: its expectation, and the steps for what the agent console did
 * without a control request (close, assign, call), which replay does through the control API.
 */
function convertHook(c: Conversion, r: ExchangeRecord): void {
  c.hooksSeen++;
  const chatId = inReplay(c, hookChatId(r));
  if (hookEventName(r) === 'chat_finished' && chatId !== undefined && !c.closed.has(chatId)) {
    // closed in the agent application (console): replay closes it with a close step
    c.closed.add(chatId);
    const customer = c.chatOf.get(chatId);
    if (customer !== undefined) c.openChat.delete(customer);
    c.steps.push({ close: customer === undefined ? {} : { customer } });
  }
  if (hookEventName(r) === 'chat_assigned' && chatId !== undefined && !c.assigned.has(chatId)) {
    // linked to the CRM in the agent application (the console's /assign), which leaves no
    // control request in the recording: replay presses the button through the control API
    c.assigned.add(chatId);
    c.steps.push({ expect: { event: { type: 'crm-data', chatId } } });
    c.steps.push({ control: { method: 'POST', path: `/_sim/chats/${chatId}/assign`, body: {} } });
  }
  // a call the agent started in the console: replay starts it through the control API
  const callStep = c.calls.steps.get(recordId(r));
  if (callStep) c.steps.push(inThisRun(c, callStep));
  const failed = isHookFailed(r);
  if (failed) c.failures.hooks++;
  const keep = c.peerFailures === 'keep';
  if (failed && !keep)
    c.notes.push(
      `${hookEventName(r) ?? 'hook'}: the receiver's failed reply left out (--peer-failures drop)`,
    );
  const expectation = hookExpectation(r, c.calls.delays.get(recordId(r)), keep);
  if (expectation) c.hookSteps.push(expectation); // at the end: hooks may overtake their trigger
}

/** A customer message the platform served (spec 4.1): a customer step, sent again as it came. */
function convertCustomer(c: Conversion, r: ExchangeRecord, body: Json | undefined): void {
  const sender = isObject(body?.sender) ? body.sender : undefined;
  const message = isObject(body?.message) ? body.message : undefined;
  const valid = r.kind?.startsWith('channel.customer.') && sender && message;
  // a numeric sender.id (type drift the platform accepts) is sent again exactly as it came
  const senderId = typeof sender?.id === 'number' ? String(sender.id) : sender?.id;
  const customer =
    valid && typeof sender.id !== 'number'
      ? { ...contentOf(message), sender }
      : { raw: body ?? r.request.body };
  if (typeof senderId === 'string') c.openedFor.add(senderId);
  if (valid && r.response?.status === 200 && typeof senderId === 'string' && senderId)
    openChatFor(c, senderId);
  c.driven = true;
  c.steps.push({ customer, ...(r.response ? { response: { status: r.response.status } } : {}) });
}

/** A listen recording starts at the agent: open the chat the agent writes in first. */
function openForAgent(c: Conversion, to: string | undefined): void {
  if (to === undefined || c.openedFor.has(to)) return;
  c.openedFor.add(to);
  openChatFor(c, to);
  c.steps.push({
    customer: { text: '(opens the chat; not in the recording)', sender: { id: to } },
  });
  c.notes.push(`customer ${to}: chat opened by a placeholder message`);
}

/**
 * An agent message (spec 2.2), once for all its attempts: an agent step with its delivery
 * verdict and an integrator expectation per attempt; a bot's answer only the expectations.
 */
function convertAgent(c: Conversion, r: ExchangeRecord, body: Json | undefined): void {
  c.driven = true;
  const message: Json = isObject(body?.message) ? body.message : {};
  const id = c.series.idOf.get(r) ?? `seq-${r.run ?? ''}-${r.seq}`;
  if (c.emitted.has(id)) return;
  c.emitted.add(id);
  const all = c.series.byId.get(id) ?? [r];
  const shown = explicitMessageIdOf(body) ?? `without an id (seq ${r.seq})`;
  // attempts a proxy's --fault answered never reached the integrator: they are the test's
  // doing, not its behaviour, and a replay against it (--integrator-url) would expect them
  const forwarded = all.filter((a) => !(a.notes ?? []).includes(NOT_FORWARDED_NOTE));
  let attempts = forwarded.length > 0 ? forwarded : all;
  if (attempts.length < all.length)
    c.notes.push(
      `message ${shown}: ${plural(all.length - attempts.length, 'attempt')} answered by the proxy's --fault left out (the integrator never got them)`,
    );
  const refused = attempts.filter(isRefused);
  c.failures.integrator += refused.length;
  if (c.peerFailures === 'drop' && refused.length > 0) {
    // written for an integrator that accepts at once: the attempts it answered, or the first
    const answered = attempts.filter((a) => !isRefused(a));
    attempts = answered.length > 0 ? answered : [];
    c.notes.push(
      `message ${shown}: ${plural(refused.length, 'refused attempt')} of the recording left out (--peer-failures drop)`,
    );
  }
  const last = attempts[attempts.length - 1];
  const to =
    isObject(body?.recipient) && typeof body.recipient.id === 'string'
      ? body.recipient.id
      : undefined;
  openForAgent(c, to);
  // the simulator notes how it sent the body; a proxy between a real platform and the
  // integrator records the request's headers as they came
  if (
    ((last ?? r).notes ?? []).includes('transfer: chunked') ||
    /\bchunked\b/i.test((last ?? r).request.headers?.['transfer-encoding'] ?? '')
  )
    c.chunked = true;
  if (last === undefined) c.sequence.push('none');
  for (const attempt of attempts) c.sequence.push(faultOf(attempt));
  const botAnswer = typeof message.text === 'string' ? c.botTexts.indexOf(message.text) : -1;
  if (botAnswer >= 0 && typeof message.text === 'string') {
    c.botTexts.splice(botAnswer, 1);
    c.botAnswered.push(message.text);
  } else {
    const result = last === undefined ? 'delivered' : resultOf(last);
    c.steps.push({
      agent: { ...contentOf(message), ...(to === undefined ? {} : { to }) },
      delivery: { result, attempts: result === 'failed' ? 3 : Math.max(1, attempts.length) },
    });
  }
  // a bot's answer holding the client id is expected with the id the replay gives
  const expected =
    botAnswer >= 0 && typeof message.text === 'string'
      ? { ...message, text: withClientRefs(message.text, namedSoFar(c)) }
      : message;
  if (last === undefined) c.steps.push(integratorExpectation(expected, 1));
  for (const [i, a] of attempts.entries()) c.steps.push(integratorExpectation(expected, i + 1, a));
}

/** One record, in the order the runs ran: the steps it stands for. */
function convertRecord(c: Conversion, r: ExchangeRecord): void {
  if (r.run !== c.run) startRun(c, r.run);
  if (isControl(r)) return convertControl(c, r);
  if (isHookSent(r)) return convertHook(c, r);
  if (isBotRecord(r)) {
    c.sawBot = true;
    c.steps.push(...botSteps(r, c.bot.failed.has(r), c.bot.names, namedSoFar(c)));
    return;
  }
  if (r.iface !== 'channel' || r.request.method !== 'POST') return;
  const body = parseBody(r.request.body);
  if (isAgentMessage(r)) return convertAgent(c, r, body);
  // the platform served a customer message (spec 4.1); a listen recording has none
  if (r.direction === 'in') convertCustomer(c, r, body);
}

/**
 * A proxy bot / proxy hooks recording holds what the peer got, not what made the platform
 * send it: without a customer message, an agent message or a control request replay has
 * nothing to start with (its first step would be about a chat that does not exist).
 */
function refuseUndriven(all: readonly ExchangeRecord[]): never {
  refusePeerRecording(all);
  const held = [...new Set(all.map((r) => r.iface))].filter((i) => i !== 'channel');
  // a proxy sits between the platform and a bot or a hook receiver; a widget page's traffic
  // (its events, the events pushed to it) is the platform's own, and converts to no step
  const proxied = held.every((i) => i === 'bot' || i === 'hook')
    ? `, as a \`proxy ${held.map((i) => (i === 'hook' ? 'hooks' : i)).join('/')}\` recording holds`
    : '';
  throw new SvcError(
    'SVC_E_RECORDING',
    `Could not convert the recording: it holds no customer message, agent message or control request${held.length > 0 ? ` (only ${held.join(' and ')} exchanges${proxied})` : ''}, so a replay would have nothing to start its chats with.`,
    'Record the platform side instead: `svc-cli platform --record session.ndjson --hook-url <your receiver, or the proxy>` (--bot-provider-url for a bot), send messages through it, and convert that file.',
  );
}

/** The peers that record their own side of what the platform sends them, by interface. */
const PEER_ROLES: Partial<Record<ExchangeRecord['iface'], { role: string; flag: string }>> = {
  bot: { role: 'bot-sim', flag: '--bot-provider-url <its URL>' },
  hook: { role: 'hook-target', flag: '--hook-url <its URL>' },
};

/**
 * A bot-sim or hook-target recording (the peer's own side: what the platform sent it, and its
 * answers) holds nothing that drove the chats: refused naming the recording that does.
 */
function refusePeerRecording(all: readonly ExchangeRecord[]): void {
  const peers = [...new Set(all.filter(recordedByPeer).map((r) => PEER_ROLES[r.iface]))].filter(
    (p) => p !== undefined,
  );
  if (peers.length === 0) return;
  const roles = peers.map((p) => `\`${p.role} --record\``).join(' and ');
  throw new SvcError(
    'SVC_E_RECORDING',
    `Could not convert the recording: it is a ${roles} recording, the peer's own side (what the platform sent it and its answers), with no customer message, agent message or control request, so a replay would have nothing to start its chats with.`,
    `Convert the platform's recording of the same conversation instead: \`svc-cli platform --record session.ndjson ${peers.map((p) => p.flag).join(' ')}\`, send messages through it, and convert session.ndjson (record diff and record profile read the ${peers.map((p) => p.role).join(' and ')} recording as it is).`,
  );
}

/** What the fixture says about its bot side. */
function botNote(side: Conversion['botSide']): string {
  if (side === 'bot-sim')
    return "The bot traffic was recorded from svc-cli's bot-sim: replay plays it with the embedded bot-sim and its default script (a recording of `bot-sim --script <file>` needs setup.bot.script set to that file).";
  if (side === 'bot-sim-failing')
    return "The bot traffic was recorded from svc-cli's bot-sim, which failed some attempts with a fault or script the recording does not name: replay it against a bot-sim started the same way with --bot-url <its URL> --platform-port <the port it posts to>.";
  return 'The bot traffic was recorded from a real bot: replay it against that bot with --bot-url <its URL> --platform-port <the port it posts to>.';
}

/** The steps after the walk: the bot's answer counts, the hook expectations, the order. */
function finishSteps(c: Conversion): void {
  if (c.sawBot) {
    c.steps.push(
      ...noMoreAnswers(c.botAnswered, c.bot.clientRefs),
      ...answerCounts(c.records, c.bot.names),
    );
    c.notes.push(botNote(c.botSide));
  }
  // then the order things came in, one run's worth (a real bot's answers need that bot)
  c.steps.push(...c.hookSteps, ...orderSteps(c.runs === 1 && !c.sawBot ? c.records : []));
  if (c.runs > 1)
    c.notes.push(
      `The recording holds ${c.runs} runs (--record appends): they replay one after the other, and the chats a run left open are closed before the next.`,
    );
}

/** The conversation a finished conversion writes: its setup and steps. */
function fixtureOf(c: Conversion, options: ToFixtureOptions): ConversationInput {
  const { notes, sawBot, chunked } = c;
  const hooks =
    c.hookSent.length > 0
      ? hooksSetupOf(c.hookSent, notes, c.unrecordedHooks, c.peerFailures === 'keep')
      : undefined;
  const faults = c.sequence.some((f) => f !== 'none') ? { sequence: c.sequence } : undefined;
  return {
    ...(options.schema === null
      ? {}
      : { $schema: options.schema ?? '../../schemas/conversation.schema.json' }),
    version: CONVERSATION_VERSION,
    name: options.name ?? 'recorded session',
    description: ['Converted by `svc-cli record to-fixture`.', ...notes].join(' '),
    // svc-cli's own bot-sim answering every attempt is the embedded one replay runs: no tag
    tags: sawBot && c.botSide !== 'bot-sim' ? ['recorded', RECORDED_BOT_TAG] : ['recorded'],
    ...(faults || chunked || hooks || sawBot || c.agentsAtStart === 'offline'
      ? {
          setup: {
            ...(c.agentsAtStart === 'offline' ? { agents: 'offline' as const } : {}),
            ...(sawBot ? { bot: botSetupOf(c.all) } : {}),
            ...(chunked ? { channel: { chunked: true } } : {}),
            ...(faults ? { integrator: { faults } } : {}),
            ...(hooks ? { hooks } : {}),
          },
        }
      : {}),
    steps: c.steps,
  };
}

/**
 * Converts recorded exchanges into a conversation (format version 1).
 * @example const conversation = convertRecording({ records: await readRecording('session.ndjson') });
 */
export function convertRecording(options: ToFixtureOptions): ConversationInput {
  return convertRecordingCounted(options).conversation;
}

/**
 * convertRecording, with how many of the peers' failures it met: the command says what
 * a kept failure means for a replay against a healthy peer.
 */
export function convertRecordingCounted(options: ToFixtureOptions): {
  conversation: ConversationInput;
  failures: PeerFailureCount;
} {
  const c = startConversion(options.records, options.peerFailures);
  for (const r of c.all) convertRecord(c, r);
  if (!c.driven) refuseUndriven(c.all);
  finishSteps(c);
  return { conversation: fixtureOf(c, options), failures: c.failures };
}
