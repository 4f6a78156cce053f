/**
 * What each `svc_api` method and `svc_on*` callback does (spec 4.5, 6.4), one line each, beside
 * the page-script schemas; docs/CONTRACT.md and `svc-cli explain` read them.
 */
import type { WIDGET_CALLBACKS, WidgetMethod } from './widget.js';

export const WIDGET_METHOD_DOCS: Record<WidgetMethod, string> = {
  open: 'opens the chat window; { start: "call" } opens the callback form with a phone field',
  close: 'closes the chat window',
  chatMode: 'whether the chat is online or offline (result shape assumed)',
  getContactInfo: 'the contact data the visitor entered in the contacts form (shape assumed)',
  getVisitorNumber:
    'calls back with (err, visitor_number); numbers count up 1, 2, 3 and show in the agent application',
  setContactInfo:
    "sets the visitor's name, e-mail, phone and description; the agent sees them as if typed by the visitor",
  setCustomData:
    'shows fields to the agent, in order, live while a chat is open; may be called again; the data comes from the browser and can be forged',
  setRules: 'replaces the invitation rules (structure unspecified)',
  setUserToken: 'attaches a visitor id that the hook events carry on; use a value hard to guess',
  showProactiveInvitation:
    'opens the chat window with an invitation text; call it in svc_onLoadCallback to show it at page load',
  startCall:
    'asks for a callback to the phone number; needs calls set up and a positive call balance',
  isCallbackEnabled:
    'calls back with whether calls are possible now; reasons Callback disabled or Callback unavaiable (spelled so)',
  sendOfflineMessage: 'sends the offline form; fails with an error when a field is invalid',
};

export const WIDGET_CALLBACK_DOCS: Record<(typeof WIDGET_CALLBACKS)[number], string> = {
  svc_onLoadCallback: 'the widget has finished loading',
  svc_onOpen: 'the chat window opened',
  svc_onMessageSent:
    'the visitor sent the first message (as it is sent, before the platform has it)',
  svc_onAccept: 'an agent pressed Reply on the new chat',
  svc_onClose: 'the chat window closed',
  svc_onIntroduction: 'the visitor filled in the contacts form',
  svc_onResizeCallback: 'the widget changed size',
  svc_onCallStart: 'the visitor started a phone call',
  svc_onCallEnd: 'a phone call ended; gets { result, reason } (reason when result is fail)',
  svc_onChangeState: 'the window state changed; gets the new state',
};
