import type { ChalkInstance } from 'chalk';
import type { BotPlatformEvent } from '../../platform/bot/bot-events.js';
import { stamp } from './time.js';
import { plural } from '../../plural.js';

const quote = (text: string, max = 60): string => {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

/**
 * One aligned line per bot-service event (interface B), in the platform's layout:
 * `←` comes into the platform, `→` goes out of it.
 */
export function formatBotEvent(event: BotPlatformEvent, c: ChalkInstance): string {
  const at = c.dim(stamp(event.protocolMs));
  switch (event.type) {
    case 'bot-event-sent': {
      const mark = event.result === 'delivered' ? c.green('✓') : c.red('✗');
      const text = event.text === undefined ? '' : ` ${quote(event.text)}`;
      const how =
        event.result === 'delivered'
          ? c.dim(`after ${plural(event.attempts, 'attempt')}`)
          : `${c.red(event.reason ?? 'failed')}${event.said ? c.dim(`: ${event.said}`) : ''}`;
      return `${at}  ${c.magenta('→')} bot ${c.bold(event.event)} ${c.dim(`chat ${event.chatId}`)}${text}  ${mark} ${how}`;
    }
    case 'bot-event-received': {
      const ok = event.status === 200 && event.outcome === 'handled';
      const mark = ok ? c.green(String(event.status)) : c.red(String(event.status));
      const chat = event.chatId === undefined ? '' : ` ${c.dim(`chat ${event.chatId}`)}`;
      const why = event.code ? ` ${c.red(event.code)}: ${event.message ?? ''}` : '';
      const note =
        event.outcome === 'not-delivered' ? c.yellow(` not delivered: ${event.message ?? ''}`) : '';
      const warnings = (event.warnings ?? []).map((w) => `\n      ${c.yellow(`warning: ${w}`)}`);
      return `${at}  ${c.magenta('←')} bot ${c.bold(event.event ?? '?')}${chat} ${c.dim(event.path)} -> ${mark}${why}${note}${warnings.join('')}`;
    }
    case 'bot-message': {
      const fallback = event.fallback ? c.dim(` (${event.messageType} as its text fallback)`) : '';
      return `${at}  ${c.blue('→')} ${c.bold(event.sender)} to ${c.bold(event.customerId)}  ${quote(event.text)}${fallback}`;
    }
    case 'bot-handover': {
      const outcome =
        event.to === 'agent'
          ? c.green('handed over to an agent')
          : event.to === 'bot'
            ? c.yellow('not handed over: no agent online, the bot keeps the chat')
            : c.yellow('not handed over: no agent online, the chat waits in the queue');
      // the reason may end in its own parenthesis (the bot's failure): within ours, after a colon
      const reason = event.reason.replace(/ \(([^()]*)\)$/, ': $1');
      return `${at}  ${c.yellow('⇄')} chat ${event.chatId} ${outcome} ${c.dim(`(${reason})`)}`;
    }
    case 'bot-agent-joined':
      return `${at}  ${c.green('+')} agent ${event.agentId} joined chat ${event.chatId} ${c.dim('(AGENT_JOINED to the bot)')}`;
    case 'bot-agent-unavailable':
      return `${at}  ${c.yellow('!')} no agent for chat ${event.chatId} ${c.dim('(AGENT_UNAVAILABLE to the bot)')}`;
    case 'bot-token': {
      const life =
        event.expiresInMs === undefined
          ? ''
          : c.dim(` valid ${(event.expiresInMs / 1000).toFixed(0)} s`);
      const colour = event.action === 'failed' || event.action === 'refused' ? c.red : c.dim;
      return `${at}  ${colour(`token ${event.action}`)}${life}${event.reason ? ` ${c.dim(`(${event.reason})`)}` : ''}`;
    }
    default: {
      const never: never = event;
      return JSON.stringify(never);
    }
  }
}
