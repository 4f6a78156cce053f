import type { ChalkInstance } from 'chalk';
import type { WidgetPlatformEvent } from '../../platform/events.js';
import { stamp } from './time.js';
import { plural } from '../../plural.js';

const brief = (value: unknown, max = 60): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/**
 * The widget channel's events (interface C) as aligned lines, in the style of
 * formatPlatformEvent: `←` from a visitor's page, `→` pushed to it.
 */
export function formatWidgetPlatformEvent(event: WidgetPlatformEvent, c: ChalkInstance): string {
  const at = c.dim(stamp(event.protocolMs));
  const who = `visitor ${c.bold(`#${'visitorNumber' in event ? event.visitorNumber : '?'}`)}`;
  switch (event.type) {
    case 'widget-update': {
      const source = event.source ? c.dim(` (${event.source})`) : '';
      const chat = event.chatId === undefined ? '' : c.dim(` chat ${event.chatId}`);
      return `${at}  ${c.green('←')} ${who}${chat} ${event.what}${source}  ${c.dim(brief(event.data))}`;
    }
    case 'widget-push': {
      const where =
        event.pages > 0
          ? c.dim(`to ${plural(event.pages, 'page')}`)
          : c.yellow('queued: no page listening');
      return `${at}  ${c.blue('→')} visitor ${c.bold(event.visitorId)} ${event.event}  ${where}`;
    }
    case 'widget-visitor':
      return `${at}  ${c.dim(`${event.connected ? 'page connected' : 'page left'}:`)} ${who} ${c.dim(event.visitorId)}`;
    case 'widget-callback-threw': {
      const chat = event.chatId === undefined ? '' : c.dim(` chat ${event.chatId}`);
      return `${at}  ${c.red('✗')} visitor ${c.bold(event.visitorId)}${chat}: the page's ${event.name} threw on ${event.event}: ${c.red(event.error)} ${c.dim('(its own bug; the widget goes on, spec 6.4)')}`;
    }
    default: {
      const never: never = event;
      return JSON.stringify(never);
    }
  }
}
