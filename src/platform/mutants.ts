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
  /** what a suite that stays green under it does not check, in plain words */
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
      'your tests would not notice the platform retrying sooner than 3 s: do they pin the redelivery interval?',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'skip-third-attempt',
    family: 'redelivery',
    spec: '8',
    deviation: 'gives up on an agent message after 2 attempts instead of 3',
    survivor:
      'your tests would not notice a lost third attempt: does a test recover only on the third attempt?',
    exercisedBy: ['timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'extra-attempt',
    family: 'redelivery',
    spec: '8',
    deviation: 'tries an agent message 4 times instead of 3',
    survivor:
      'your tests would not notice a fourth delivery attempt: do they count the attempts of a failed series?',
    exercisedBy: ['timing:channel:failed'],
  },
  {
    name: 'no-redelivery',
    family: 'redelivery',
    spec: '8',
    deviation: 'sends an agent message once, with no redelivery',
    survivor:
      'your tests never depend on redelivery: does your endpoint ever fail once and get the message again?',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'redeliver-new-id',
    family: 'redelivery',
    spec: '8',
    deviation: 'gives each redelivery of an agent message a new message.id (attempt 1 keeps it)',
    survivor:
      'your tests would not notice a redelivered message arriving under a new id: do they check that a retry repeats the id of the attempt your endpoint refused?',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3', 'timing:channel:failed'],
  },
  {
    name: 'bot-handover-after-one-attempt',
    family: 'redelivery',
    spec: '3',
    deviation: 'hands the chat over after one unanswered bot attempt instead of 2',
    survivor:
      'your tests would not notice the platform giving up on the bot after one attempt: does your bot ever answer on the second?',
    exercisedBy: ['timing:bot:attempt-2', 'timing:bot:failed'],
  },
  {
    name: 'bot-redeliver-early',
    family: 'redelivery',
    spec: '8',
    deviation: 'retries a bot event 2.5 s after a failed attempt instead of 3 s',
    survivor: 'your tests do not pin the bot retry interval of 3 s',
    exercisedBy: ['timing:bot:attempt-2', 'timing:bot:failed'],
  },
  {
    name: 'duplicate-agent-message',
    family: 'delivery',
    spec: '2.2',
    deviation: 'delivers every agent message twice (same message.id)',
    survivor:
      'your tests would not notice the platform delivering an agent message twice: does your code de-duplicate by message id?',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'reorder-agent-messages',
    family: 'delivery',
    spec: '4.2',
    deviation: 'holds the first agent message of a chat for 1 s, so the next one overtakes it',
    survivor:
      'your tests would not notice two agent messages arriving out of order: do they check the order the customer sees?',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'drop-agent-typing',
    family: 'delivery',
    spec: '2.3',
    deviation: 'never sends agent typing notices (typein/typeout)',
    survivor: 'your tests never check that the customer sees the agent typing',
    exercisedBy: ['kind:channel.agent.typing'],
  },
  {
    name: 'flip-chunked',
    family: 'delivery',
    spec: '4.2',
    deviation: "sends agent messages with the other framing than the channel's chunked switch says",
    survivor:
      'your tests would not notice the body framing change: does your endpoint read chunked bodies and Content-Length bodies alike?',
    exercisedBy: ['timing:channel:chunked', 'timing:channel:content-length'],
  },
  {
    name: 'numeric-message-ids',
    family: 'payload',
    spec: '2.2',
    deviation: 'sends message.id of agent messages as a number',
    survivor:
      'your tests would not notice a numeric message id: does your code treat message.id as a string?',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'drop-agent-name',
    family: 'payload',
    spec: '2.2',
    deviation: 'leaves sender.name out of agent messages',
    survivor:
      'your tests never read the agent name: would your UI show an agent message without one?',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'drop-agent-photo',
    family: 'payload',
    spec: '2.2',
    deviation: 'leaves sender.photo out of agent messages',
    survivor: 'your tests never read the agent avatar (sender.photo)',
    exercisedBy: ['kind:channel.agent.text'],
  },
  {
    name: 'numeric-bot-ids',
    family: 'payload',
    spec: '2.5',
    deviation: 'sends id and chat_id of bot events as numbers',
    survivor:
      'your tests would not notice numeric bot event ids: does your bot treat chat_id as a string?',
    exercisedBy: ['kind:bot.event.CLIENT_MESSAGE'],
  },
  {
    name: 'millisecond-timestamps',
    family: 'payload',
    spec: '2.5',
    deviation: 'stamps CLIENT_MESSAGE with unix milliseconds instead of seconds',
    survivor:
      'your tests would not notice a timestamp 1000 times too large: does your bot read message.timestamp as seconds?',
    exercisedBy: ['kind:bot.event.CLIENT_MESSAGE'],
  },
  {
    name: 'cut-at-999',
    family: 'limits',
    spec: '8',
    deviation: 'cuts customer text at 999 code points instead of 1000',
    survivor:
      'your tests never send a text of exactly 1000 characters: the limit could be one lower',
    exercisedBy: ['flow:channel:text-cut'],
  },
  {
    name: 'cut-at-1001',
    family: 'limits',
    spec: '8',
    deviation: 'cuts customer text at 1001 code points instead of 1000',
    survivor: 'your tests never send a text of 1001 characters: the limit could be one higher',
    exercisedBy: ['flow:channel:text-cut'],
  },
  {
    name: 'no-text-cut',
    family: 'limits',
    spec: '8',
    deviation: 'delivers customer text of any length uncut',
    survivor: 'your tests never send a text over 1000 characters and check what the agent gets',
    exercisedBy: ['flow:channel:text-cut'],
  },
  {
    name: 'customer-500-once',
    family: 'channel',
    spec: '4.1',
    deviation: 'answers the first customer message 500 (and drops it)',
    survivor:
      'your tests would not notice a message the platform refused: does your client check the status and retry or report it?',
    exercisedBy: ['kind:channel.customer.text'],
  },
  {
    name: 'unknown-channel-200',
    family: 'channel',
    spec: '7.1',
    deviation: 'answers 200 for an unknown channel public id instead of 404',
    survivor: 'your tests never send to a wrong channel URL and expect the 404',
    exercisedBy: ['status:postCustomerMessage:404', 'status:getChannelStatus:404'],
  },
  {
    name: 'status-inverted',
    family: 'channel',
    spec: '4.1',
    deviation: 'answers the channel status 1 when agents are offline and 0 when online',
    survivor: 'your tests never read the channel status with agents online and offline',
    exercisedBy: ['kind:channel.status'],
  },
  {
    name: 'empty-sender-delivered',
    family: 'channel',
    spec: '7.1',
    deviation: 'accepts and delivers a customer message with an empty sender.id',
    survivor: 'your tests never check that a message without a sender id is refused',
    exercisedBy: ['error:channel.customer:rejected'],
  },
  {
    name: 'no-agent-joined',
    family: 'bot',
    spec: '6.1',
    deviation: 'never sends AGENT_JOINED to the bot',
    survivor:
      'your tests would not notice the bot never hearing that an agent joined: does your bot stop answering then?',
    exercisedBy: ['kind:bot.event.AGENT_JOINED'],
  },
  {
    name: 'agent-joined-unasked',
    family: 'bot',
    spec: '3',
    deviation:
      'sends AGENT_JOINED to the bot just before the first CLIENT_MESSAGE, with no INVITE_AGENT and no hand-over',
    survivor:
      'your tests would not notice an agent joining a bot chat nobody handed over: does your bot keep answering, or stop before anyone asked for an agent?',
    exercisedBy: ['kind:bot.event.AGENT_JOINED'],
  },
  {
    name: 'no-agent-unavailable',
    family: 'bot',
    spec: '6.1',
    deviation: 'never sends AGENT_UNAVAILABLE to the bot',
    survivor:
      'your tests never hand over with no agent online: does your bot ask for contact data then?',
    exercisedBy: ['kind:bot.event.AGENT_UNAVAILABLE'],
  },
  {
    name: 'bot-429-once',
    family: 'bot',
    spec: '7.2',
    deviation: "answers the bot's first event 429 Too Many Requests (and drops it)",
    survivor:
      'your tests would not notice a rate-limited bot answer: does your bot retry after a 429?',
    exercisedBy: ['kind:bot.event.BOT_MESSAGE', 'kind:bot.event.INVITE_AGENT'],
  },
  {
    name: 'ignore-custom-data',
    family: 'hooks',
    spec: '6.2',
    deviation: "ignores the chat_accepted reply's custom_data",
    survivor:
      'your tests would not notice the agent never seeing your custom_data: do they check what the agent is shown?',
    exercisedBy: ['field:hook.chat_accepted.reply:custom_data:present'],
  },
  {
    name: 'ignore-crm-link',
    family: 'hooks',
    spec: '6.2',
    deviation: "ignores the chat_accepted reply's crm_link (no CRM button, no chat_assigned)",
    survivor: 'your tests never follow a crm_link to chat_assigned',
    exercisedBy: ['field:hook.chat_accepted.reply:crm_link:present'],
  },
  {
    name: 'offline-messages-spelling',
    family: 'hooks',
    spec: '6.2',
    deviation: 'names the offline hook event offline_messages (the field-table spelling)',
    survivor:
      'your tests pass with either spelling of the offline event: right for a receiver that accepts both (spec 6.2 note); otherwise add a test that sends offline_messages',
    exercisedBy: ['kind:hook.offline_message'],
  },
  {
    name: 'offline-form-while-online',
    family: 'hooks',
    spec: '3',
    deviation: 'takes the offline form while agents are online and sends its offline_message hook',
    survivor:
      'your tests never send the offline form with agents online: the platform must refuse it (the widget shows the chat)',
    exercisedBy: ['kind:hook.offline_message'],
  },
  {
    name: 'no-chat-finished',
    family: 'hooks',
    spec: '6.2',
    deviation: 'closes a chat without sending chat_finished',
    survivor:
      'your tests would not notice a chat closing without chat_finished: does anything wait for it?',
    exercisedBy: ['kind:hook.chat_finished'],
  },
  {
    name: 'transcript-repeats-redelivered',
    family: 'hooks',
    spec: '2.6',
    deviation:
      "lists a redelivered agent message in chat_finished's transcript once per delivery attempt",
    survivor:
      'your tests never read the chat_finished transcript of a chat whose agent message was redelivered: is it there once?',
    exercisedBy: ['timing:channel:attempt-2', 'timing:channel:attempt-3'],
  },
  {
    name: 'hook-without-user-token',
    family: 'hooks',
    spec: '6.2',
    deviation: 'leaves the visitor id set with setUserToken out of hook events',
    survivor: 'your tests never match a hook event to your user by the visitor id',
    exercisedBy: ['field:hook events:user_token:present'],
  },
  {
    name: 'widget-push-ids-rewind',
    family: 'widget',
    spec: '6.4',
    deviation:
      "numbers a widget visitor's event stream from 1 again when an agent accepts the chat, so the accept is pushed under a lower stream id than the pushes before it (a call's statuses)",
    survivor:
      "your tests never check that the page's callbacks follow the pushes they reflect: would anything notice svc_onAccept reported for a push numbered below one the page already handled (a reconnect's Last-Event-ID would then skip or repeat events)?",
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
