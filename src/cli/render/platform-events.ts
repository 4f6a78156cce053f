import type { ChalkInstance } from 'chalk';
import type { PlatformEvent } from '../../platform/events.js';
import { formatBotEvent } from './bot-events.js';
import { formatHookPlatformEvent } from './hook-platform-events.js';
import { formatWidgetPlatformEvent } from './widget-platform-events.js';
import { stamp } from './time.js';
import { plural } from '../../plural.js';

const quote = (text: string, max = 60): string => {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

/**
 * One aligned line per simulator event: protocol time, direction arrow, who, what.
 * `←` comes into the platform, `→` goes out of it.
 */
export function formatPlatformEvent(event: PlatformEvent, c: ChalkInstance): string | undefined {
  switch (event.type) {
    case 'listening':
      return undefined; // the command prints its own banner
    case 'customer-message': {
      const cut = event.cut
        ? c.yellow(`  (cut from ${event.cut.from} to ${event.cut.to} characters, spec 2.1)`)
        : '';
      const what =
        event.text === undefined ? event.kind.replace('channel.customer.', '') : quote(event.text);
      // spec 2.1: the name is shown to the agent; the id is what /reply and control calls take
      const who = event.customerName
        ? `${c.bold(event.customerName)} ${c.dim(`(${event.customerId})`)}`
        : c.bold(event.customerId);
      return `${c.dim(stamp(event.protocolMs))}  ${c.green('←')} customer ${who} ${c.dim(`chat ${event.chatId}`)}  ${what}${cut}`;
    }
    case 'customer-typing':
      return `${c.dim(stamp(event.protocolMs))}  ${c.green('←')} customer ${c.bold(event.customerId)} ${c.dim(event.typing ? 'is typing…' : 'stopped typing')}`;
    case 'violation': {
      const colour = event.outcome === 'warned' || event.outcome === 'ignored' ? c.yellow : c.red;
      const outcome =
        event.outcome === 'delivered' && event.dropped
          ? `delivered without ${event.dropped.join(', ')}`
          : event.outcome;
      const head = `${c.dim(stamp(event.protocolMs))}  ${colour(event.outcome === 'warned' ? '!' : '✗')} ${event.source}${event.kind ? ` ${event.kind}` : ''} ${colour(outcome)}`;
      const issues = event.issues.map(
        (i) =>
          `\n             ${colour('•')} ${i.path || '(root)'}: ${i.rule}${i.spec ? ` (spec ${i.spec})` : ''}`,
      );
      return head + issues.join('');
    }
    case 'agent-message': {
      const what =
        event.typing !== undefined
          ? `typing ${event.typing ? 'started' : 'stopped'}`
          : event.text === undefined
            ? event.kind.replace('channel.agent.', '')
            : quote(event.text);
      return `${c.dim(stamp(event.protocolMs))}  ${c.blue('→')} agent ${c.bold(event.agent)} to ${c.bold(event.customerId)}  ${what}  ${c.dim(messageTag(event.deliveryId))}`;
    }
    case 'delivery-attempt': {
      const mark = event.outcome === 'accepted' ? c.green('✓') : c.red('✗');
      const detail =
        event.outcome === 'accepted'
          ? `HTTP ${event.status ?? ''}${event.warning ? ` ${c.yellow(`(${event.warning})`)}` : ''}`
          : `${event.reason ?? ''}${event.said ? c.dim(`: ${event.said}`) : ''}`;
      return `${c.dim(stamp(event.protocolMs))}    ${mark} ${event.target} attempt ${event.attempt}/${event.attempts} at +${(event.offsetMs / 1000).toFixed(3)}s ${c.dim(`(${attemptTime(event)}, ${event.transfer ?? ''})`)} ${detail}${seriesOf(event, c)}`;
    }
    case 'delivery-done': {
      // a bot event's verdict is its `→ bot ... ✓ after n attempts` line (bot-event-sent)
      if (event.target === 'bot') return undefined;
      if (event.result === 'delivered')
        return `${c.dim(stamp(event.protocolMs))}    ${c.green('delivered')} ${c.dim(`after ${attemptsText(event.attempts)}`)}${seriesOf(event, c)}`;
      const colour = event.result === 'error-reply' ? c.yellow : c.red;
      return `${c.dim(stamp(event.protocolMs))}    ${colour(event.result === 'error-reply' ? 'error reply shown to the agent' : event.result)}: ${event.agentNotice ?? ''}${seriesOf(event, c)}`;
    }
    case 'agents':
      return `${c.dim(stamp(event.protocolMs))}  agents are ${event.online ? c.green('online (status 1)') : c.yellow('offline (status 0)')}`;
    case 'chat-opened':
      return `${c.dim(stamp(event.protocolMs))}  ${c.dim(`chat ${event.chatId} opened for ${event.customerId}`)}`;
    case 'chat-accepted':
      return `${c.dim(stamp(event.protocolMs))}  ${c.dim(`chat ${event.chatId} accepted by agent ${event.agentId}`)}`;
    case 'chat-closed':
      return `${c.dim(stamp(event.protocolMs))}  chat ${event.chatId} closed${event.reason === 'idle' ? ' (idle: --chat-idle-timeout)' : event.reason === 'max-chats' ? ' (--max-chats reached)' : ''}`;
    case 'customer-updated':
      return `${c.dim(stamp(event.protocolMs))}  ${c.dim(`customer ${event.customerId} updated ${event.fields.join(', ')}`)}`;
    case 'request-rejected':
      return `${c.dim(stamp(event.protocolMs))}  ${c.red('✗')} ${event.method} ${event.path} -> ${event.status} ${event.code}: ${event.message}`;
    case 'notice': {
      const colour = event.level === 'error' ? c.red : event.level === 'warning' ? c.yellow : c.dim;
      return `${c.dim(stamp(event.protocolMs))}  ${colour(event.message)}`;
    }
    case 'bot-event-sent':
    case 'bot-event-received':
    case 'bot-message':
    case 'bot-handover':
    case 'bot-agent-joined':
    case 'bot-agent-unavailable':
    case 'bot-token':
      return formatBotEvent(event, c);
    case 'chat-assigned':
    case 'offline-message':
    case 'call-status':
    case 'hook-sent':
    case 'hook-reply':
    case 'crm-data':
      return formatHookPlatformEvent(event, c);
    case 'widget-update':
    case 'widget-push':
    case 'widget-visitor':
    case 'widget-callback-threw':
      return formatWidgetPlatformEvent(event, c);
    default: {
      const never: never = event;
      return JSON.stringify(never);
    }
  }
}

/** An agent message as its lines name it: `msg 13434dc2` (its message.id's start). */
const messageTag = (deliveryId: string): string => `msg ${deliveryId.slice(0, 8)}`;

/** `1 attempt`, `3 attempts`. */
const attemptsText = (n: number): string => plural(n, 'attempt');

/**
 * Which series an attempt or verdict belongs to, dimmed at the end of its line: the bot event
 * or hook it carries and its chat. Series of several chats overlap (3 s apart, spec 8), and a
 * bot event's attempts print before its `→ bot` summary, so a line names its own.
 * @example seriesOf({ kind: 'bot.event.CLIENT_MESSAGE', chatId: 3 }, c) // '  CLIENT_MESSAGE chat 3' (dimmed)
 */
function seriesOf(
  event: { kind?: string; chatId?: number; deliveryId?: string; target?: string },
  c: ChalkInstance,
): string {
  const what = event.kind?.replace(/^bot\.event\.|^hook\./, '');
  const parts = [
    // two agent messages redelivered at once (one typed while the other waits) tell apart
    ...(event.target === 'integrator' && event.deliveryId ? [messageTag(event.deliveryId)] : []),
    ...(what !== undefined && what !== event.kind ? [what] : []),
    ...(event.chatId === undefined ? [] : [`chat ${event.chatId}`]),
  ];
  return parts.length === 0 ? '' : `  ${c.dim(parts.join(' '))}`;
}

/**
 * How long an attempt took: wall ms, and its protocol ms when --time-scale makes them differ
 * (at 0.01 a 34 ms attempt is 3388 ms of protocol time).
 */
function attemptTime(event: { durationMs: number; wallMs?: number }): string {
  const protocol = Math.round(event.durationMs);
  const wall = event.wallMs === undefined ? protocol : Math.round(event.wallMs);
  return Math.abs(protocol - wall) <= 1
    ? `${wall} ms`
    : `${wall} ms wall = ${protocol} ms protocol`;
}
