/**
 * `svc_api`: every method of spec 4.5 with its exact result shapes and failure reasons.
 * Every call lands in `widget.calls`; where the real script would ignore bad input
 * silently, the double does too and notes it in `widget.issues`.
 */
import {
  OFFLINE_ERRORS,
  REASONS,
  checkOfflineMessage,
  failedTokenValue,
  isRecord,
  isValidPhone,
  isValidUserToken,
  pickContactInfo,
} from './checks.js';
import { checkCustomData, type CustomDataCheck } from './custom-data.js';
import {
  changeState,
  endCall,
  fireCallback,
  isOpenState,
  noteIssue,
  noteThrown,
  pageOf,
  sendEvent,
  track,
  type WidgetSession,
} from './session.js';
import type {
  CallRecord,
  ChatMode,
  ContactInfo,
  OfflineMessageResult,
  ReasonResult,
  SvcApi,
  UserTokenResult,
} from './types.js';

function recordCall(
  session: WidgetSession,
  method: CallRecord['method'],
  args: unknown[],
): CallRecord {
  const record: CallRecord = { method, args, result: undefined, time: session.now() };
  session.calls.push(record);
  // spec 6.4: the platform's script loads asynchronously and then runs svc_onLoadCallback; a
  // page that calls svc_api sooner works with the double, which is there at once, and throws
  // a ReferenceError on the real page (svc_api is not defined yet). Said once per method.
  if (session.loaded === false && !session.calls.some((c) => c !== record && c.method === method)) {
    noteIssue(
      session,
      method,
      'before_load',
      `${method} called before svc_onLoadCallback: the real script loads asynchronously, so svc_api may not exist yet there. Call it from window.svc_onLoadCallback.`,
    );
  }
  return record;
}

/** Stores the result on the call record and returns it. */
function finish<R>(record: CallRecord, result: R): R {
  record.result = result;
  return result;
}

/** startCall's refusals that are the page's input, not the platform's state. */
const INPUT_REASONS = new Set<string>([REASONS.phoneNotString, REASONS.invalidPhone]);

/**
 * A call the page made with input the method refuses: its `fail` result is all the real script
 * gives (spec 4.5, 7.3), and a page that does not read it learns nothing, so the double notes
 * it (`issues`, the page's console) with the reason.
 */
function noteRefusal(session: WidgetSession, method: string, reason: string): void {
  noteIssue(session, method, 'refused', `${method}: fail, ${reason} (spec 4.5)`);
}

/** Runs a page callback later, like the real script answering after a request; errors are noted. */
function answerLater(session: WidgetSession, method: string, run: () => void): void {
  void track(
    session,
    Promise.resolve().then(() => {
      try {
        run();
      } catch (error) {
        noteThrown(session, method, `${method} callback`, error);
      }
    }),
  );
}

/** spec 4.5 isCallbackEnabled: why calls are not available now, or undefined when they are. */
export function checkCallback(session: WidgetSession): string | undefined {
  if (session.callback === 'disabled') return REASONS.callbackDisabled;
  // "unavailable for other reasons (day of week, time, call already started)"; assumption:
  // a balance at or below zero is one of those reasons.
  if (session.callback === 'unavailable' || session.callActive || session.callBalance <= 0) {
    return REASONS.callbackUnavailable;
  }
  return undefined;
}

function startCall(session: WidgetSession, phone: unknown): ReasonResult {
  // spec 4.5: phone (string); a number or an object is the page's mistake, not a bad number
  if (typeof phone !== 'string') return { result: 'fail', reason: REASONS.phoneNotString };
  if (!isValidPhone(phone)) return { result: 'fail', reason: REASONS.invalidPhone };
  if (session.callback === 'disabled') return { result: 'fail', reason: REASONS.callbackDisabled };
  if (session.callback === 'unavailable' || session.callActive) {
    return { result: 'fail', reason: REASONS.callbackUnavailable };
  }
  // spec 4.5: requires a positive call balance
  if (session.callBalance <= 0) return { result: 'fail', reason: REASONS.noCallBalance };
  session.callActive = true;
  session.callStatus = 'start';
  fireCallback(session, 'svc_onCallStart'); // spec 6.4: a visitor starts a phone call
  const { visitorId } = session;
  void sendEvent(session, { type: 'start_call', visitorId, phone, ...pageOf(session) }).then(
    (reply) => {
      if (!reply.ok) endCall(session, { result: 'fail', reason: reply.error });
    },
  );
  return { result: 'ok' };
}

function toJsonObject(
  session: WidgetSession,
  rules: Record<string, unknown>,
  method: 'setRules' | 'setClientAttributes' = 'setRules',
): Record<string, never> | undefined {
  try {
    return JSON.parse(JSON.stringify(rules)) as Record<string, never>;
  } catch (error) {
    const what = method === 'setRules' ? 'rules' : 'attributes';
    noteIssue(session, method, 'not_json', `${method}: ${what} are not JSON: ${String(error)}`);
    return undefined;
  }
}

/** Builds the `svc_api` object bound to one widget session. */
export function createSvcApi(session: WidgetSession): SvcApi {
  const api = createSpecApi(session);
  const limit = session.attributeCallsPerHour;
  if (limit !== undefined)
    api.setClientAttributes = (attributes) => setClientAttributes(session, attributes, limit);
  return api;
}

const HOUR_MS = 3_600_000;

/**
 * The public JS API's setClientAttributes (docs profile): a key/value object merged into the
 * visitor's attributes, at most `limit` calls per visitor in any hour. **Assumption**: the
 * refused call's answer; the docs give the limit, not what the script returns beyond it.
 */
function setClientAttributes(
  session: WidgetSession,
  attributes: unknown,
  limit: number,
): ReasonResult {
  const record = recordCall(session, 'setClientAttributes', [attributes]);
  const now = session.now();
  session.attributeCalls = session.attributeCalls.filter((at) => now - at < HOUR_MS);
  if (session.attributeCalls.length >= limit) {
    noteIssue(
      session,
      'setClientAttributes',
      'rate_limited',
      `setClientAttributes: refused, call ${session.attributeCalls.length + 1} within an hour; the public JS API allows ${limit} calls per visitor and hour`,
    );
    return finish<ReasonResult>(record, {
      result: 'fail',
      reason: `limit of ${limit} calls per hour reached`,
    });
  }
  if (!isRecord(attributes)) {
    noteIssue(
      session,
      'setClientAttributes',
      'invalid_argument',
      'setClientAttributes: attributes must be an object of keys and values',
    );
    return finish<ReasonResult>(record, { result: 'fail', reason: 'attributes must be an object' });
  }
  session.attributeCalls.push(now);
  session.attributes = { ...session.attributes, ...attributes };
  const sent = toJsonObject(session, attributes, 'setClientAttributes');
  // the platform tells the hook receiver (client_attribute_updated, public Webhooks page)
  if (sent)
    void sendEvent(session, {
      type: 'client_attributes',
      visitorId: session.visitorId,
      attributes: sent,
    });
  return finish<ReasonResult>(record, { result: 'ok' });
}

/**
 * What getContactInfo answers: the contact as set; under the docs profile the name under the
 * public JS API's key, `client_name`. **Assumption**: the other fields keep their names.
 */
function contactAnswer(session: WidgetSession): ContactInfo {
  const { name, ...rest } = session.contact;
  if (session.contactNameKey !== 'client_name' || name === undefined) return { ...session.contact };
  return { client_name: name, ...rest };
}

/**
 * setCustomData's fields checked (spec 4.5); under the docs profile at most 10 of them, as the
 * public JS API says. **Assumption**: more are refused whole, as the double's other refusals,
 * rather than cut to the first 10.
 */
function checkFieldsOf(session: WidgetSession, fields: unknown): CustomDataCheck {
  const limit = session.customDataFields;
  if (limit !== undefined && Array.isArray(fields) && fields.length > limit) {
    noteIssue(
      session,
      'setCustomData',
      'too_many_fields',
      `setCustomData: refused, ${fields.length} fields; the public JS API allows ${limit}`,
    );
    return { ok: false, reason: `at most ${limit} fields` };
  }
  const checked = checkCustomData(fields, session.linkPolicy);
  if (!checked.ok) noteRefusal(session, 'setCustomData', checked.reason);
  return checked;
}

/**
 * The methods of spec 4.5, each recorded in `session.calls`; the longer ones are functions of
 * their own below, each taking the session.
 */
function createSpecApi(session: WidgetSession): SvcApi {
  const { visitorId } = session;
  return {
    open(options) {
      recordCall(session, 'open', [options]);
      openWidget(session, options);
    },
    close() {
      recordCall(session, 'close', []);
      if (isOpenState(session.state))
        changeState(session, session.chatStarted ? 'chat/min' : 'label');
    },
    chatMode() {
      const record = recordCall(session, 'chatMode', []);
      return finish<ChatMode>(record, session.online ? 'online' : 'offline');
    },
    getContactInfo() {
      const record = recordCall(session, 'getContactInfo', []);
      return finish(record, contactAnswer(session));
    },
    getVisitorNumber(callback) {
      const record = recordCall(session, 'getVisitorNumber', [callback]);
      getVisitorNumber(session, record, callback);
    },
    setContactInfo(info) {
      recordCall(session, 'setContactInfo', [info]);
      setContactInfo(session, info);
    },
    setCustomData(fields) {
      const record = recordCall(session, 'setCustomData', [fields]);
      const checked = checkFieldsOf(session, fields);
      if (!checked.ok)
        return finish<ReasonResult>(record, { result: 'fail', reason: checked.reason });
      for (const issue of checked.issues)
        noteIssue(session, issue.method, issue.code, issue.message);
      session.customData = checked.fields; // spec 4.5: may be called repeatedly; replaces
      void sendEvent(session, { type: 'custom_data', visitorId, fields: checked.fields });
      return finish<ReasonResult>(record, { result: 'ok' });
    },
    setRules(rules) {
      recordCall(session, 'setRules', [rules]);
      if (!isRecord(rules)) {
        noteIssue(session, 'setRules', 'invalid_argument', 'setRules: rules must be an object');
        return;
      }
      const json = toJsonObject(session, rules);
      if (json === undefined) return;
      session.rules = json; // spec 4.5: replaces the trigger rules
      void sendEvent(session, { type: 'rules', visitorId, rules: json });
    },
    setUserToken(token) {
      const record = recordCall(session, 'setUserToken', [token]);
      if (!isValidUserToken(token)) {
        // the result carries no reason (spec 4.5): the page's console gets one
        const got =
          typeof token === 'string'
            ? 'a blank string'
            : token === null
              ? 'null'
              : `a ${typeof token}`;
        noteIssue(
          session,
          'setUserToken',
          'invalid_argument',
          `setUserToken: the token must be a non-blank string, got ${got}: fail (spec 4.5)`,
        );
        return finish<UserTokenResult>(record, { result: 'fail', token: failedTokenValue(token) });
      }
      session.userToken = token;
      void sendEvent(session, { type: 'user_token', visitorId, token });
      return finish<UserTokenResult>(record, { result: 'ok', token });
    },
    showProactiveInvitation(text, departmentId) {
      recordCall(session, 'showProactiveInvitation', [text, departmentId]);
      showInvitation(session, text, departmentId);
    },
    startCall(phone) {
      const record = recordCall(session, 'startCall', [phone]);
      const result = finish(record, startCall(session, phone));
      // the page's mistake (not the callback setting or the balance, which the page asks
      // isCallbackEnabled about): said in the console, as the real script says nothing
      if (result.result === 'fail' && INPUT_REASONS.has(result.reason))
        noteRefusal(session, 'startCall', result.reason);
      return result;
    },
    isCallbackEnabled(callback) {
      const record = recordCall(session, 'isCallbackEnabled', [callback]);
      isCallbackEnabled(session, record, callback);
    },
    sendOfflineMessage(...args: unknown[]) {
      const record = recordCall(session, 'sendOfflineMessage', args);
      const checked = checkOfflineMessage(offlineMessageOf(args), session.online);
      if (!checked.ok) {
        // agents online is the platform's state, which chatMode() tells; the rest the page's input
        if (checked.error !== OFFLINE_ERRORS.agentsOnline)
          noteRefusal(session, 'sendOfflineMessage', checked.error);
        return finish<OfflineMessageResult>(record, { result: 'fail', error: checked.error });
      }
      void sendEvent(session, {
        type: 'offline_message',
        visitorId,
        message: checked.message,
        ...pageOf(session),
      });
      return finish<OfflineMessageResult>(record, { result: 'ok' });
    },
  };
}

/** spec 4.5 open: `start: 'call'` opens the callback form (over an open chat `chat/call`). */
function openWidget(session: WidgetSession, options: unknown): void {
  if (options !== undefined && !isRecord(options)) {
    noteIssue(
      session,
      'open',
      'invalid_argument',
      'open: options must be an object such as {start: "call"}',
    );
  }
  const start = isRecord(options) ? options.start : undefined;
  // spec 4.5: "call" is the one start there is; another (a typo, "Call") opens the chat
  if (start !== undefined && start !== 'call') {
    noteIssue(
      session,
      'open',
      'invalid_argument',
      `open: start ${describeValue(start)} is not "call": the chat window opens`,
    );
  }
  const wasOpen = isOpenState(session.state);
  changeState(session, start === 'call' ? (wasOpen ? 'chat/call' : 'call') : 'chat');
}

/** spec 4.5 getVisitorNumber: the platform's number for this visitor, to a Node-style callback. */
function getVisitorNumber(session: WidgetSession, record: CallRecord, callback: unknown): void {
  if (typeof callback !== 'function') {
    noteIssue(
      session,
      'getVisitorNumber',
      'invalid_argument',
      'getVisitorNumber: callback must be a function',
    );
    return;
  }
  const answer = callback as (err: Error | null, visitorNumber?: number) => void;
  // spec 4.5: the callback gets (err, visitor_number); one of a single parameter reads the
  // error (null) as the number, and the page shows "null" with no word why
  if (answer.length === 1)
    noteIssue(
      session,
      'getVisitorNumber',
      'callback_arity',
      'getVisitorNumber: the callback gets (err, visitorNumber), and yours takes one parameter: it receives the error, null when there is none (spec 4.5)',
    );
  void sendEvent(session, { type: 'visitor_number', visitorId: session.visitorId }).then(
    (reply) => {
      const error = !reply.ok
        ? new Error(reply.error)
        : typeof reply.visitorNumber === 'number'
          ? null
          : new Error('platform sent no visitor number');
      record.result = error ?? (reply.ok ? reply.visitorNumber : undefined);
      answerLater(session, 'getVisitorNumber', () =>
        error ? answer(error) : answer(null, record.result as number),
      );
    },
  );
}

/** spec 4.5 setContactInfo: the four string fields taken, anything else noted and ignored. */
function setContactInfo(session: WidgetSession, info: unknown): void {
  const { contact, dropped, unknown } = pickContactInfo(info);
  if (dropped[0] === '(argument)') {
    const got = info === null ? 'null' : Array.isArray(info) ? 'an array' : `a ${typeof info}`;
    noteIssue(
      session,
      'setContactInfo',
      'not_object',
      `setContactInfo takes an object {name, email, phone, description} of strings, got ${got}: ignored (spec 4.5)`,
    );
    return;
  }
  for (const field of unknown)
    noteIssue(
      session,
      'setContactInfo',
      'unknown_field',
      `setContactInfo: unknown field "${field}" ignored (spec 4.5: name, email, phone, description)`,
    );
  if (dropped.length > 0) {
    noteIssue(
      session,
      'setContactInfo',
      'not_string',
      `setContactInfo: ignored ${dropped.join(', ')} (spec 4.5: strings)`,
    );
  }
  // nothing the spec lists is left (a typo, a number): no update to send
  if (Object.keys(contact).length === 0) return;
  session.contact = { ...session.contact, ...contact };
  void sendEvent(session, {
    type: 'contact_info',
    visitorId: session.visitorId,
    source: 'api',
    contact,
  });
}

/** A value as a page developer reads it in a message: `"3"`, `42`, `undefined`. */
function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** spec 4.5 showProactiveInvitation: opens the chat window with the page's text. */
function showInvitation(session: WidgetSession, text: unknown, departmentId: unknown): void {
  // spec 4.5: the text is required, department_id optional; the note says which one is wrong
  if (
    typeof text !== 'string' ||
    text.trim() === '' ||
    (departmentId !== undefined && typeof departmentId !== 'number')
  ) {
    const problem =
      typeof text !== 'string' || text.trim() === ''
        ? `the invitation text must be a non-blank string (got ${describeValue(text)})`
        : `department_id, when given, must be a number (got ${describeValue(departmentId)})`;
    noteIssue(
      session,
      'showProactiveInvitation',
      'invalid_argument',
      `showProactiveInvitation: ${problem}; nothing shown`,
    );
    return;
  }
  session.messages.push({ from: 'invitation', text, time: session.now() });
  session.chatStarted = true;
  changeState(session, 'chat'); // spec 4.5: opens the chat window with custom text
  void sendEvent(session, {
    type: 'invitation',
    visitorId: session.visitorId,
    text,
    ...(departmentId === undefined ? {} : { departmentId }),
  });
}

/** spec 4.5 isCallbackEnabled: whether calls are available now, to the page's callback, later. */
function isCallbackEnabled(session: WidgetSession, record: CallRecord, callback: unknown): void {
  if (typeof callback !== 'function') {
    noteIssue(
      session,
      'isCallbackEnabled',
      'invalid_argument',
      'isCallbackEnabled: callback must be a function',
    );
    return;
  }
  const reason = checkCallback(session);
  const result: ReasonResult = reason === undefined ? { result: 'ok' } : { result: 'fail', reason };
  record.result = result;
  answerLater(session, 'isCallbackEnabled', () => (callback as (r: ReasonResult) => void)(result));
}

/**
 * sendOfflineMessage's arguments as one message: spec 4.5 lists five strings (name, email,
 * phone, description, message); one object of them is read too (assumption, README).
 */
export function offlineMessageOf(args: readonly unknown[]): unknown {
  const [first] = args;
  if (typeof first !== 'string') return first;
  return Object.fromEntries(
    (['name', 'email', 'phone', 'description', 'message'] as const).flatMap((key, i) =>
      args[i] === undefined ? [] : [[key, args[i]]],
    ),
  );
}
