/**
 * Helpers a test uses to play the agent, the platform and the visitor. Agent and platform
 * helpers apply the same inbound events a transport delivers (see transport.ts), locally;
 * misuse (ending a call that never started) throws, since it is a bug in the test.
 */
import { pickContactInfo } from './checks.js';
import {
  applyInbound,
  changeState,
  fireCallback,
  isOpenState,
  pageOf,
  sendEvent,
  type ChatMessage,
  type WidgetSession,
} from './session.js';
import type { CallEndResult, ContactInfo, WidgetState } from './types.js';

export interface WidgetDriver {
  agent: {
    /** An agent pressed Reply in the new-chat notice: svc_onAccept (spec 3, 6.4). */
    accept(agentName?: string): void;
    /** An agent wrote in the chat. */
    say(text: string, agentName?: string): void;
    /** Agents went online or offline: chatMode() follows. */
    setOnline(online: boolean): void;
    /**
     * The agent closed the chat: the page shows so, and the visitor's next message starts a
     * new chat (svc_onMessageSent fires for it again, spec 6.4).
     */
    closeChat(): void;
  };
  /** The admin panel's callback setting (spec 4.5 isCallbackEnabled). */
  callback: { enable(): void; disable(): void; unavailable(): void };
  call: {
    /** The platform reached the visitor's phone (spec 2.6 agent_connected, client_connected). */
    connect(): void;
    /** The call ended: svc_onCallEnd(res) (spec 6.4); default `{result: 'ok'}`. */
    end(res?: CallEndResult): void;
    setBalance(balance: number): void;
  };
  visitor: {
    /**
     * The visitor types a message (opening the window first); the first fires svc_onMessageSent.
     * One the platform does not take gets `notSent` (see `resend`).
     */
    send(text: string): void;
    /**
     * Sends a visitor message marked `notSent` again, the same text in the same place (the
     * visitor's Retry); `notSent` goes at once and comes back if this try fails too.
     */
    resend(message: ChatMessage): void;
    /** The visitor fills the contacts form: svc_onIntroduction (spec 6.4). */
    fillContacts(info: ContactInfo): void;
  };
  /** The widget's size changed: svc_onResizeCallback (spec 6.4), only on a real change. */
  resize(width: number, height: number): void;
  /** Moves to any spec 3 widget state, firing svc_onOpen / svc_onClose / svc_onChangeState. */
  setState(state: WidgetState): void;
}

function requireCall(session: WidgetSession, helper: string): void {
  if (!session.callActive) {
    throw new Error(
      `${helper}: no call in progress; start one with svc_api.startCall(phone) first`,
    );
  }
}

/** Builds the driver helpers of one widget session. */
export function createWidgetDriver(session: WidgetSession): WidgetDriver {
  const { visitorId } = session;
  /** Posts a visitor message; a failure marks it, so the page can say so and offer a retry. */
  const sendVisitorMessage = (message: ChatMessage): void => {
    const first = session.firstOfChat === message;
    void sendEvent(
      session,
      { type: 'visitor_message', visitorId, text: message.text, first, ...pageOf(session) },
      (failure) => {
        message.notSent = failure;
      },
    );
  };
  return {
    agent: {
      accept: (agentName) =>
        applyInbound(session, {
          type: 'agent_accepted',
          ...(agentName === undefined ? {} : { agentName }),
        }),
      say: (text, agentName) =>
        applyInbound(session, {
          type: 'agent_message',
          text,
          ...(agentName === undefined ? {} : { agentName }),
        }),
      setOnline: (online) => applyInbound(session, { type: 'chat_mode', online }),
      closeChat: () => applyInbound(session, { type: 'chat_closed' }),
    },
    callback: {
      enable: () => applyInbound(session, { type: 'callback_setting', callback: 'enabled' }),
      disable: () => applyInbound(session, { type: 'callback_setting', callback: 'disabled' }),
      unavailable: () =>
        applyInbound(session, { type: 'callback_setting', callback: 'unavailable' }),
    },
    call: {
      connect() {
        requireCall(session, 'call.connect');
        applyInbound(session, { type: 'call_status', status: 'agent_connected' });
        applyInbound(session, { type: 'call_status', status: 'client_connected' });
      },
      end(res = { result: 'ok' }) {
        requireCall(session, 'call.end');
        applyInbound(
          session,
          res.result === 'ok'
            ? { type: 'call_status', status: 'end' }
            : { type: 'call_status', status: 'error', reason: res.reason },
        );
      },
      setBalance(balance) {
        session.callBalance = balance;
      },
    },
    visitor: {
      send(text) {
        if (typeof text !== 'string' || text.trim() === '') {
          throw new TypeError('visitor.send: text must be a non-empty string');
        }
        if (!isOpenState(session.state)) changeState(session, 'chat');
        const first = session.firstOfChat === undefined;
        const message: ChatMessage = { from: 'visitor', text, time: session.now() };
        session.messages.push(message);
        session.chatStarted = true;
        if (first) session.firstOfChat = message;
        // spec 6.4: the first message of a chat only (a chat closed, the next one's first again)
        if (first) fireCallback(session, 'svc_onMessageSent');
        sendVisitorMessage(message);
      },
      resend(message) {
        if (!session.messages.includes(message) || message.notSent === undefined) {
          throw new Error('visitor.resend: not a visitor message of this widget marked notSent');
        }
        // svc_onMessageSent fired when it was typed: a retry is the same message
        delete message.notSent;
        sendVisitorMessage(message);
      },
      fillContacts(info) {
        const { contact } = pickContactInfo(info);
        session.contact = { ...session.contact, ...contact };
        void sendEvent(session, { type: 'contact_info', visitorId, source: 'form', contact });
        fireCallback(session, 'svc_onIntroduction'); // spec 6.4: contacts form filled
      },
    },
    resize(width, height) {
      if (session.size.width === width && session.size.height === height) return;
      session.size = { width, height };
      fireCallback(session, 'svc_onResizeCallback');
    },
    setState: (state) => changeState(session, state),
  };
}
