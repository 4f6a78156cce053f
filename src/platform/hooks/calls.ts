import { randomUUID } from 'node:crypto';
import { SvcError } from '../../errors.js';
import type { PlatformCore } from '../core.js';
import type { CallStatusEvent } from './events.js';

/**
 * Simulated callback calls (spec 2.6 call, 3: call status). The spec shows the statuses but
 * not their transitions; the simulator plays the obvious order on the ONE clock:
 * start -> agent_connected -> client_connected -> end (with record_url), or
 * start -> agent_connected -> error (with reason).
 */
export interface StartCallOptions {
  phone: string;
  /** the chat the call belongs to, if any (chat_id is optional in call_event) */
  chatId?: number;
  /** spec 2.6 call.type (default callback: the visitor asked to be called back) */
  type?: CallStatusEvent['callType'];
  /** scripted outcome: the call ends normally (default) or fails with a reason */
  outcome?: { kind: 'end'; talkMs?: number } | { kind: 'error'; reason: string };
  /** protocol ms between status changes (default 5 s, or the pace the control API set) */
  stepMs?: number;
  agentId?: number;
  /**
   * the call's id (default: a new one), for a caller that must know it before the first status
   * is announced: `start` goes out before startCall returns
   */
  callId?: string;
}

export const CALL_STEP_MS = 5000;
export const CALL_TALK_MS = 30_000;

/** The pace of the calls a platform plays: between status changes, and of the talk. */
export interface CallTiming {
  stepMs: number;
  talkMs: number;
}

/**
 * The pace set through the control API (`POST /_sim/calls/timing`) for the calls started from
 * then on, the page's `startCall` included; unset: 5 s steps, 30 s talk.
 */
const timings = new WeakMap<PlatformCore, CallTiming>();

/** The pace of the calls `core` starts now. */
export function callTimingOf(core: PlatformCore): CallTiming {
  return timings.get(core) ?? { stepMs: CALL_STEP_MS, talkMs: CALL_TALK_MS };
}

/**
 * Sets the pace of the calls `core` starts from now on (a call under way keeps its own);
 * returns the pace before, to set back.
 * @example const before = setCallTiming(core, { stepMs: 100, talkMs: 100 });
 */
export function setCallTiming(core: PlatformCore, timing: Partial<CallTiming>): CallTiming {
  const before = callTimingOf(core);
  timings.set(core, { ...before, ...timing });
  return before;
}

const PHONE = /^\+?[0-9][0-9 ()-]{4,}$/;

/**
 * Starts a call and lets it move through its statuses on the platform clock; every change is
 * a `call-status` event (the hook service turns each into call_event).
 * @example const { callId, done } = startCall(core, { phone: '+49 30 1234567' }); await done;
 */
export function startCall(
  core: PlatformCore,
  options: StartCallOptions,
): { callId: string; done: Promise<CallStatusEvent['status']> } {
  // spec 4.5 startCall: "ok when the number format is right"
  if (!PHONE.test(options.phone.trim())) {
    throw new SvcError(
      'SVC_E_PHONE',
      `Could not start a call: "${options.phone}" is not a phone number.`,
      'Example: +49 30 1234567',
    );
  }
  if (options.chatId !== undefined && !core.state.chats.has(options.chatId)) {
    throw new SvcError('SVC_E_NO_CHAT', `Could not find chat ${options.chatId}.`);
  }
  const callId = options.callId ?? randomUUID();
  const chat = options.chatId === undefined ? undefined : core.state.chats.get(options.chatId);
  const agentId =
    options.agentId ?? chat?.agentId ?? core.state.agents[0]?.id ?? 0; /* the operator */
  const pace = callTimingOf(core);
  const step = options.stepMs ?? pace.stepMs;
  const outcome = options.outcome ?? { kind: 'end' };
  const emit = (status: CallStatusEvent['status'], extra: Partial<CallStatusEvent> = {}): void =>
    core.moment({
      type: 'call-status',
      callId,
      ...(options.chatId === undefined ? {} : { chatId: options.chatId }),
      callType: options.type ?? 'callback',
      phone: options.phone.trim(),
      status,
      agentId,
      ...extra,
      protocolMs: core.clock.now(),
    });
  const run = async (): Promise<CallStatusEvent['status']> => {
    emit('start');
    await core.clock.sleep(step, core.signal);
    emit('agent_connected');
    await core.clock.sleep(step, core.signal);
    if (outcome.kind === 'error') {
      emit('error', { reason: outcome.reason }); // spec 2.6: reason present when status is error
      return 'error';
    }
    emit('client_connected');
    await core.clock.sleep(outcome.talkMs ?? pace.talkMs, core.signal);
    // spec 2.6: record_url, a link to an mp3 recording, once the call has ended
    emit('end', { recordUrl: `https://records.example.com/calls/${callId}.mp3` });
    return 'end';
  };
  const done = core.track(run());
  done.catch(() => undefined); // the platform stopped mid-call
  return { callId, done };
}
