/**
 * What the simulator reports about interface C (the page script talking to the platform
 * through the widget channel). Part of `PlatformEvent`; the web console and the CLI show them.
 */
export type WidgetPlatformEvent =
  WidgetUpdateEvent | WidgetPushEvent | WidgetVisitorEvent | WidgetCallbackThrewEvent;

/**
 * A page's callback threw on a pushed event (spec 6.4): the page's own bug. The widget goes on,
 * as the real script does, so nothing else would show it.
 */
export interface WidgetCallbackThrewEvent {
  type: 'widget-callback-threw';
  visitorId: string;
  chatId?: number;
  /** the callback: svc_onAccept, svc_onCallEnd */
  name: string;
  /** the pushed event it ran for */
  event: string;
  /** what it threw, as the page's String(error) gave it */
  error: string;
  protocolMs: number;
}

/** What a visitor's page changed (spec 4.5 setContactInfo, setCustomData, setUserToken ...). */
export interface WidgetUpdateEvent {
  type: 'widget-update';
  visitorId: string;
  visitorNumber: number;
  /** the open chat of the visitor, when there is one (the agent panel updates live) */
  chatId?: number;
  what:
    | 'contact_info'
    | 'custom_data'
    | 'user_token'
    | 'rules'
    | 'invitation'
    | 'offline_message'
    | 'client_attributes';
  /** the visitor as a customer of the state (`<channel id>/<sender id>`), where it matters */
  customerKey?: string;
  /** contact info: typed through the API or the contacts form (spec 6.4 svc_onIntroduction) */
  source?: 'api' | 'form';
  data: unknown;
  protocolMs: number;
}

/** An inbound event handed to a visitor's page (agent message, accept, chat mode, call status). */
export interface WidgetPushEvent {
  type: 'widget-push';
  visitorId: string;
  chatId?: number;
  /** the WidgetInboundEvent type: agent_message, agent_accepted, chat_mode, call_status */
  event: string;
  /** the agent message id, for agent messages */
  deliveryId?: string;
  /** pages listening right now; 0 means it waits in the backlog for the next connect */
  pages: number;
  protocolMs: number;
}

/** A visitor's page connected to (or left) the event stream. */
export interface WidgetVisitorEvent {
  type: 'widget-visitor';
  visitorId: string;
  visitorNumber: number;
  connected: boolean;
  protocolMs: number;
}
