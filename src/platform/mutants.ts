/**
 * Simulator mutants: named deviations of the platform from the contract, each a small switch
 * inside the simulator. A user's suite run against a mutant should fail; one that stays green
 * (a survivor) shows behaviour of the platform the suite would not notice changing. The active
 * mutant comes from `createPlatform({ mutant })`, `--mutant`, or `SVC_MUTANT`, so any harness
 * that starts the simulator (platform, replay, the msw handlers) runs the mutant.
 */
import { SvcError } from '../errors.js';
import type { DeliveryPolicy } from './delivery.js';

export const MUTANT_FAMILIES = [
  'redelivery',
  'delivery',
  'payload',
  'limits',
  'channel',
  'bot',
  'hooks',
  'widget',
] as const;
export type MutantFamily = (typeof MUTANT_FAMILIES)[number];

export interface MutantInfo {
  name: string;
  family: MutantFamily;
  /** the contract section the deviation breaks */
  spec: string;
  /** what the simulator does instead */
  deviation: string;
  /**
   * what a suite that stays green under it does not check, and the assertion that would kill
   * it; for a deviation a robust app tolerates, that surviving can mean just that
   */
  survivor: string;
  /**
   * the `svc-cli coverage` items a run must exercise for the mutant to be observable at all:
   * a run that hit none of them cannot kill it (`mutate --coverage` reports it unrun)
   */
  exercisedBy: readonly string[];
}

export const MUTANTS = [
  {
    name: 'redeliver-early',
    family: 'redelivery',
    spec: '8',
    deviation: 'redelivers an agent message 2.5 s after a failed attempt instead of 3 s',
    survivor:
      'your tests do not pin the 3 s redelivery interval: to kill it, refuse an agent message and assert the next attempt comes 3 s later, not sooner',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'skip-third-attempt',
    family: 'redelivery',
    spec: '8',
    deviation: 'gives up on an agent message after 2 attempts instead of 3',
    survivor:
      'no test needs the third attempt: to kill it, refuse the first two attempts and assert the message arrives on the third',
    exercisedBy: ['timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'extra-attempt',
    family: 'redelivery',
    spec: '8',
    deviation: 'tries an agent message 4 times instead of 3',
    survivor:
      'your tests do not count the attempts of a failed series: to kill it, refuse every attempt and assert exactly 3 arrive',
    exercisedBy: ['timing:channel:failed'],
  },
  {
    name: 'no-redelivery',
    family: 'redelivery',
    spec: '8',
    deviation: 'sends an agent message once, with no redelivery',
    survivor:
      'no test depends on redelivery: to kill it, refuse one attempt and assert the message arrives again',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'redeliver-new-id',
    family: 'redelivery',
    spec: '8',
    deviation: 'gives each redelivery of an agent message a new message.id (attempt 1 keeps it)',
    survivor:
      "your tests do not compare a retry's message.id: to kill it, refuse one attempt and assert the redelivery repeats the refused id",
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'bot-handover-after-one-attempt',
    family: 'redelivery',
    spec: '3',
    deviation: 'hands the chat over after one unanswered bot attempt instead of 2',
    survivor:
      "no test needs the bot's second attempt: to kill it, leave the first bot event unanswered and assert the chat stays with the bot for the second",
    exercisedBy: ['timing:bot:attempt-2', 'timing:bot:failed'],
  },
  {
    name: 'bot-redeliver-early',
    family: 'redelivery',
    spec: '8',
    deviation: 'retries a bot event 2.5 s after a failed attempt instead of 3 s',
    survivor:
      'your tests do not pin the bot retry interval: to kill it, fail a bot event and assert the retry comes 3 s later, not sooner',
    exercisedBy: ['timing:bot:attempt-2', 'timing:bot:failed'],
  },
  {
    name: 'duplicate-agent-message',
    family: 'delivery',
    spec: '2.2',
    deviation: 'delivers every agent message twice (same message.id)',
    survivor:
      'your tests do not count deliveries: to kill it, count the POSTs your endpoint receives for one agent message (1). Surviving can also mean your code already tolerates it (de-duplicates by message.id)',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'reorder-agent-messages',
    family: 'delivery',
    spec: '4.2',
    deviation: 'holds the first agent message of a chat for 1 s, so the next one overtakes it',
    survivor:
      'your tests do not check arrival order: to kill it, send two agent messages and assert the customer sees them in the order sent',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'drop-agent-typing',
    family: 'delivery',
    spec: '2.3',
    deviation: 'never sends agent typing notices (typein/typeout)',
    survivor:
      'your tests never check agent typing: to kill it, assert the customer side receives typein and typeout while the agent types',
    exercisedBy: ['kind:channel.agent.typing'],
  },
  {
    name: 'flip-chunked',
    family: 'delivery',
    spec: '4.2',
    deviation: "sends agent messages with the other framing than the channel's chunked switch says",
    survivor:
      "your tests do not check the body framing: to kill it, assert your endpoint gets chunked bodies only when the channel's chunked switch is on. Surviving can also mean your endpoint already tolerates both",
    exercisedBy: ['timing:channel:chunked', 'timing:channel:content-length'],
  },
  {
    name: 'numeric-message-ids',
    family: 'payload',
    spec: '2.2',
    deviation: 'sends message.id of agent messages as a number',
    survivor:
      'your tests do not check the type of message.id: to kill it, assert it arrives as a string. Surviving can also mean your code already tolerates a number',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'drop-agent-name',
    family: 'payload',
    spec: '2.2',
    deviation: 'leaves sender.name out of agent messages',
    survivor:
      'your tests never read the agent name: to kill it, assert sender.name of an agent message (or that your UI shows it). Surviving can also mean your UI already tolerates its absence',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'drop-agent-photo',
    family: 'payload',
    spec: '2.2',
    deviation: 'leaves sender.photo out of agent messages',
    survivor:
      'your tests never read the agent avatar: to kill it, assert sender.photo of an agent message. Surviving can also mean your UI already tolerates its absence',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'numeric-bot-ids',
    family: 'payload',
    spec: '2.5',
    deviation: 'sends id and chat_id of bot events as numbers',
    survivor:
      "your tests do not check the type of a bot event's id and chat_id: to kill it, assert they arrive as strings. Surviving can also mean your bot already tolerates numbers",
    exercisedBy: ['kind:bot.event.CLIENT_MESSAGE'],
  },
  {
    name: 'millisecond-timestamps',
    family: 'payload',
    spec: '2.5',
    deviation: 'stamps CLIENT_MESSAGE with unix milliseconds instead of seconds',
    survivor:
      'your tests do not check the unit of message.timestamp: to kill it, assert it is unix seconds. Surviving can also mean your bot already tolerates it (never reads it)',
    exercisedBy: ['kind:bot.event.CLIENT_MESSAGE'],
  },
  {
    name: 'cut-at-999',
    family: 'limits',
    spec: '8',
    deviation: 'cuts customer text at 999 code points instead of 1000',
    survivor:
      'no test sends exactly 1000 characters: to kill it, send 1000 and assert the agent gets all of them',
    exercisedBy: ['flow:channel:text-cut'],
  },
  {
    name: 'cut-at-1001',
    family: 'limits',
    spec: '8',
    deviation: 'cuts customer text at 1001 code points instead of 1000',
    survivor:
      'no test sends 1001 characters: to kill it, send 1001 and assert the agent gets the first 1000',
    exercisedBy: ['flow:channel:text-cut'],
  },
  {
    name: 'no-text-cut',
    family: 'limits',
    spec: '8',
    deviation: 'delivers customer text of any length uncut',
    survivor:
      'no test sends over 1000 characters: to kill it, send more and assert the agent gets the first 1000',
    exercisedBy: ['flow:channel:text-cut'],
  },
  {
    name: 'customer-500-once',
    family: 'channel',
    spec: '4.1',
    deviation: 'answers the first customer message 500 (and drops it)',
    survivor:
      'your tests do not check that a customer message arrives: to kill it, assert the first one your client sends reaches the agent. Surviving can also mean your client already tolerates a 500 (retries)',
    exercisedBy: ['kind:channel.customer.text'],
  },
  {
    name: 'unknown-channel-200',
    family: 'channel',
    spec: '7.1',
    deviation: 'answers 200 for an unknown channel public id instead of 404',
    survivor:
      'no test sends to a wrong channel URL: to kill it, send to an unknown channel id and assert the 404',
    exercisedBy: ['status:postCustomerMessage:404', 'status:getChannelStatus:404'],
  },
  {
    name: 'status-inverted',
    family: 'channel',
    spec: '4.1',
    deviation: 'answers the channel status 1 when agents are offline and 0 when online',
    survivor:
      'your tests never read the channel status both ways: to kill it, assert 1 with agents online and 0 with none',
    exercisedBy: ['kind:channel.status'],
  },
  {
    name: 'empty-sender-delivered',
    family: 'channel',
    spec: '7.1',
    deviation: 'accepts and delivers a customer message with an empty sender.id',
    survivor:
      'no test sends a message without a sender id: to kill it, send one with an empty sender.id and assert it is refused',
    exercisedBy: ['error:channel.customer:rejected'],
  },
  {
    name: 'no-agent-joined',
    family: 'bot',
    spec: '6.1',
    deviation: 'never sends AGENT_JOINED to the bot',
    survivor:
      'your tests never wait for AGENT_JOINED: to kill it, hand a chat over and assert your bot hears AGENT_JOINED (and stops answering)',
    exercisedBy: ['kind:bot.event.AGENT_JOINED'],
  },
  {
    name: 'agent-joined-unasked',
    family: 'bot',
    spec: '3',
    deviation:
      'sends AGENT_JOINED to the bot just before the first CLIENT_MESSAGE, with no INVITE_AGENT and no hand-over',
    survivor:
      'no test checks when AGENT_JOINED may come: to kill it, assert your bot answers the first customer message of a chat nobody handed over',
    exercisedBy: ['kind:bot.event.AGENT_JOINED'],
  },
  {
    name: 'no-agent-unavailable',
    family: 'bot',
    spec: '6.1',
    deviation: 'never sends AGENT_UNAVAILABLE to the bot',
    survivor:
      'no test hands over with no agent online: to kill it, do so and assert your bot hears AGENT_UNAVAILABLE (and asks for contact data)',
    exercisedBy: ['kind:bot.event.AGENT_UNAVAILABLE'],
  },
  {
    name: 'bot-429-once',
    family: 'bot',
    spec: '7.2',
    deviation: "answers the bot's first event 429 Too Many Requests (and drops it)",
    survivor:
      "your tests do not check that the bot's first answer arrives: to kill it, assert the customer gets it. Surviving can also mean your bot already tolerates a 429 (retries)",
    exercisedBy: ['kind:bot.event.BOT_MESSAGE', 'kind:bot.event.INVITE_AGENT'],
  },
  {
    name: 'ignore-custom-data',
    family: 'hooks',
    spec: '6.2',
    deviation: "ignores the chat_accepted reply's custom_data",
    survivor:
      'your tests do not check what the agent is shown: to kill it, reply to chat_accepted with custom_data and assert the agent sees it',
    exercisedBy: ['field:hook.chat_accepted.reply:custom_data:present'],
  },
  {
    name: 'ignore-crm-link',
    family: 'hooks',
    spec: '6.2',
    deviation: "ignores the chat_accepted reply's crm_link (no CRM button, no chat_assigned)",
    survivor:
      'no test follows a crm_link: to kill it, reply to chat_accepted with a crm_link and assert chat_assigned reaches you',
    exercisedBy: ['field:hook.chat_accepted.reply:crm_link:present'],
  },
  {
    name: 'offline-messages-spelling',
    family: 'hooks',
    spec: '6.2',
    deviation: 'names the offline hook event offline_messages (the field-table spelling)',
    survivor:
      'no test tells the two spellings of the offline event apart: to kill it, assert your receiver handles offline_message. Surviving is right for a receiver that already tolerates both (spec 6.2 note)',
    exercisedBy: ['kind:hook.offline_message'],
  },
  {
    name: 'offline-form-while-online',
    family: 'hooks',
    spec: '3',
    deviation: 'takes the offline form while agents are online and sends its offline_message hook',
    survivor:
      'no test sends the offline form with agents online: to kill it, do so and assert the platform refuses it (the widget shows the chat)',
    exercisedBy: ['kind:hook.offline_message'],
  },
  {
    name: 'no-chat-finished',
    family: 'hooks',
    spec: '6.2',
    deviation: 'closes a chat without sending chat_finished',
    survivor:
      'nothing in your tests waits for chat_finished: to kill it, close a chat and assert your receiver gets chat_finished',
    exercisedBy: ['kind:hook.chat_finished'],
  },
  {
    name: 'transcript-repeats-redelivered',
    family: 'hooks',
    spec: '2.6',
    deviation:
      "lists a redelivered agent message in chat_finished's transcript once per delivery attempt",
    survivor:
      'no test reads the transcript of a redelivered chat: to kill it, refuse an agent message once and assert chat_finished lists it once',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3'],
  },
  {
    name: 'hook-without-user-token',
    family: 'hooks',
    spec: '6.2',
    deviation: 'leaves the visitor id set with setUserToken out of hook events',
    survivor:
      'no test matches a hook event to your user: to kill it, call setUserToken and assert your hook events carry it',
    exercisedBy: ['field:hook events:user_token:present'],
  },
  {
    name: 'widget-push-ids-rewind',
    family: 'widget',
    spec: '6.4',
    deviation:
      "numbers a widget visitor's event stream from 1 again when an agent accepts the chat, so the accept is pushed under a lower stream id than the pushes before it (a call's statuses)",
    survivor:
      "no test checks that the page's callbacks follow the pushes they reflect: to kill it, assert svc_onAccept's push id is above every push the page handled before (a reconnect's Last-Event-ID would skip or repeat events)",
    exercisedBy: ['kind:widget.callback.svc_onCallEnd.args'],
  },
] as const satisfies readonly MutantInfo[];

export type MutantName = (typeof MUTANTS)[number]['name'];

const NAMES = new Set<string>(MUTANTS.map((m) => m.name));

/** The mutant's entry. */
export function mutantInfo(name: MutantName): MutantInfo {
  return MUTANTS.find((m) => m.name === name)!;
}

/**
 * The active mutant: the given name, else `SVC_MUTANT`; empty means none. An unknown name is
 * an input error, never a silent clean run (the mutation run would count it as killed).
 * @example resolveMutant('redeliver-early') // 'redeliver-early'
 */
export function resolveMutant(
  name: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): MutantName | undefined {
  const value = (name ?? env.SVC_MUTANT ?? '').trim();
  if (value === '') return undefined;
  if (NAMES.has(value)) return value as MutantName;
  throw new SvcError(
    'SVC_E_UNKNOWN_MUTANT',
    `Could not start the simulator with mutant "${value}": no mutant by that name.`,
    'List them with `svc-cli mutate --list`.',
  );
}

/** The channel's delivery policy under a redelivery mutant (spec 8). */
export function mutateChannelPolicy(
  policy: DeliveryPolicy,
  mutant: MutantName | undefined,
): DeliveryPolicy {
  // a silent peer is given up on sooner too: the next attempt starts at 2.5 s either way
  if (mutant === 'redeliver-early') return { ...policy, intervalMs: 2500, attemptTimeoutMs: 2500 };
  if (mutant === 'skip-third-attempt') return { ...policy, attempts: 2 };
  if (mutant === 'extra-attempt')
    return { ...policy, attempts: 4, failAfterMs: policy.failAfterMs + policy.intervalMs };
  if (mutant === 'no-redelivery') return { ...policy, attempts: 1 };
  return policy;
}

/** The bot's delivery policy under a redelivery mutant (spec 3, 8). */
export function mutateBotPolicy(
  policy: DeliveryPolicy,
  mutant: MutantName | undefined,
): DeliveryPolicy {
  if (mutant === 'bot-handover-after-one-attempt') return { ...policy, attempts: 1 };
  if (mutant === 'bot-redeliver-early')
    return { ...policy, intervalMs: 2500, attemptTimeoutMs: 2500 };
  return policy;
}

/** One-shot mutants fire once per platform: the first customer message, the first bot event. */
const fired = new WeakMap<object, Set<string>>();
export function fireOnce(owner: object, name: MutantName): boolean {
  let set = fired.get(owner);
  if (!set) fired.set(owner, (set = new Set()));
  if (set.has(name)) return false;
  set.add(name);
  return true;
}
