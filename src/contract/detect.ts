/**
 * Kind detection from the fields that discriminate payloads: `event`, `event_name`,
 * `message.type`, `sender` vs `recipient`, `result` / `error`, the widget argument names.
 */
import { MEDIA_TYPES, TYPING_TYPES } from './channel.js';
import { BOT_ERROR_CODES, BOT_EVENTS, DOCS_BOT_EVENTS } from './bot.js';
import { DOCS_HOOK_EVENTS, HOOK_EVENTS } from './hooks.js';
import { CALLBACK_FAIL_REASONS, CHAT_MODES } from './widget.js';
import type { DetectResult } from './types.js';

type Json = Record<string, unknown>;

const has = (o: Json, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const includes = (list: readonly string[], v: unknown): boolean =>
  typeof v === 'string' && list.includes(v);

/**
 * Kind names by their discriminator, built once: a 100k-payload stream looks each kind up
 * instead of concatenating it and hashing the new string for the registry.
 */
function kindsBy(prefix: string, names: readonly string[], kind = (n: string) => n) {
  return new Map<unknown, string>(names.map((n) => [n, `${prefix}${kind(n)}`]));
}
const channelKinds = (side: 'customer' | 'agent') =>
  kindsBy(`channel.${side}.`, ['text', ...TYPING_TYPES, ...MEDIA_TYPES], (type) =>
    includes(TYPING_TYPES, type) ? 'typing' : type,
  );
const CHANNEL_KINDS = { customer: channelKinds('customer'), agent: channelKinds('agent') };
const BOT_KINDS = kindsBy('bot.event.', [...BOT_EVENTS, ...DOCS_BOT_EVENTS]);
const HOOK_KINDS = kindsBy('hook.', [...HOOK_EVENTS, ...DOCS_HOOK_EVENTS]);

function detectChannel(value: Json, side: 'customer' | 'agent'): DetectResult {
  const message = value.message;
  if (!isObject(message)) return { reason: 'message is missing or not an object' };
  const kind = CHANNEL_KINDS[side].get(message.type);
  if (kind !== undefined) return { kind };
  const type = message.type;
  return {
    reason: `message.type ${JSON.stringify(type)} is not text, typein, typeout or a media type`,
  };
}

function detectResult(value: Json): DetectResult {
  const result = value.result;
  if (has(value, 'token')) return { kind: 'widget.setUserToken.result' };
  if (
    ['custom_data', 'contact_info', 'enable_assign', 'crm_link', 'page'].some((k) => has(value, k))
  ) {
    return { kind: 'hook.chat_accepted.reply' };
  }
  if (result === 'fail') {
    if (has(value, 'error')) return { kind: 'widget.sendOfflineMessage.result' };
    if (includes(CALLBACK_FAIL_REASONS, value.reason))
      return { kind: 'widget.isCallbackEnabled.result' };
    return {
      ambiguous: [
        'widget.setCustomData.result',
        'widget.startCall.result',
        'widget.isCallbackEnabled.result',
      ],
      reason: 'result "fail" with a reason is returned by several svc_api methods',
    };
  }
  if (result === 'FAILURE') {
    return {
      ambiguous: HOOK_EVENTS.filter((e) => e !== 'call_event' && e !== 'chat_accepted').map(
        (e) => `hook.${e}.reply`,
      ),
      reason: 'result "FAILURE" is the reply of several hook events',
    };
  }
  // {result:"ok"} answers many things; the channel reply is the common case on the wire.
  return { kind: 'channel.integrator.reply' };
}

function detectWidget(value: Json): DetectResult | undefined {
  if (has(value, 'state')) return { kind: 'widget.callback.svc_onChangeState.args' };
  if (has(value, 'res')) return { kind: 'widget.callback.svc_onCallEnd.args' };
  if (has(value, 'fields')) return { kind: 'widget.setCustomData.args' };
  if (has(value, 'rules')) return { kind: 'widget.setRules.args' };
  if (has(value, 'invitation_text')) return { kind: 'widget.showProactiveInvitation.args' };
  if (has(value, 'visitor_number')) return { kind: 'widget.getVisitorNumber.result' };
  if (has(value, 'token')) return { kind: 'widget.setUserToken.args' };
  if (has(value, 'start')) return { kind: 'widget.open.args' };
  if (has(value, 'message') && typeof value.message === 'string') {
    return { kind: 'widget.sendOfflineMessage.args' };
  }
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'phone') return { kind: 'widget.startCall.args' };
  if (keys.length > 0 && keys.every((k) => ['name', 'email', 'phone', 'description'].includes(k))) {
    return { kind: 'widget.setContactInfo.args' };
  }
  return undefined;
}

/**
 * The kind of a payload, or why it cannot be told.
 * @example detectKind({ event: 'CLIENT_MESSAGE', ... }) // { kind: 'bot.event.CLIENT_MESSAGE' }
 */
export function detectKind(value: unknown): DetectResult {
  if (value === 0 || value === 1) return { kind: 'channel.status' };
  if (includes(CHAT_MODES, value)) return { kind: 'widget.chatMode.result' };
  if (!isObject(value)) {
    return {
      reason: `${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`} is no payload of the spec`,
    };
  }
  if (has(value, 'event_name')) {
    const name = value.event_name === 'offline_messages' ? 'offline_message' : value.event_name;
    const kind = HOOK_KINDS.get(name);
    if (kind !== undefined) return { kind };
    return {
      reason: `event_name ${JSON.stringify(value.event_name)} is not a hook event of spec 6.2`,
    };
  }
  if (has(value, 'event')) {
    const kind = BOT_KINDS.get(value.event);
    if (kind !== undefined) return { kind };
    return { reason: `event ${JSON.stringify(value.event)} is not a bot event of spec 6.1` };
  }
  if (has(value, 'recipient')) return detectChannel(value, 'agent');
  if (has(value, 'sender') || (has(value, 'message') && isObject(value.message))) {
    return detectChannel(value, 'customer');
  }
  if (has(value, 'error') && !has(value, 'result')) {
    const code = isObject(value.error) ? value.error.code : undefined;
    return { kind: includes(BOT_ERROR_CODES, code) ? 'bot.error' : 'channel.integrator.reply' };
  }
  if (has(value, 'result')) return detectResult(value);
  // a file of svc-cli's own: its rules look like widget.setRules' args, and were judged so
  const own = ownFormat(value);
  if (own) return { reason: `it is ${own}`, notPayload: true };
  const widget = detectWidget(value);
  if (widget) return widget;
  // a file of svc-cli's own, not a payload of the contract: say which command reads it
  if (has(value, 'steps') && has(value, 'version'))
    return {
      reason: 'it is a conversation fixture, not a payload: svc-cli replay <file> runs it',
      notPayload: true,
    };
  return {
    reason: 'none of event, event_name, sender, recipient, message, result or error is present',
  };
}

/** svc-cli's own file formats, by the JSON Schema a file names: what each is, what reads it. */
const OWN_FORMATS: readonly (readonly [schema: string, what: string])[] = [
  [
    'bot-script.schema.json',
    'a bot script, not a payload: svc-cli bot-sim --script <file> follows it',
  ],
  [
    'profile.schema.json',
    'a profile, not a payload: --profile <file> (platform, proxy, replay) follows it',
  ],
  [
    'fault-plan.schema.json',
    'a fault plan, not a payload: --fault-plan <file> (platform, listen, ...) serves it',
  ],
  ['svc.config.schema.json', 'a config file, not a payload: every command reads svc.config.json'],
];

/**
 * What svc-cli file a value is, when it names one of their schemas (`"$schema":
 * "../../schemas/bot-script.schema.json"`) or has a bot script's shape (a version and a list of
 * rules); undefined for anything else.
 */
function ownFormat(value: Record<string, unknown>): string | undefined {
  const schema = typeof value.$schema === 'string' ? value.$schema : '';
  const named = OWN_FORMATS.find(([file]) => schema.endsWith(file));
  if (named) return named[1];
  if (has(value, 'version') && Array.isArray(value.rules)) return OWN_FORMATS[0]![1];
  return undefined;
}
