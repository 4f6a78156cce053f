import type { ChalkInstance } from 'chalk';
import type { BotListeningEvent, BotSimEvent } from '../../roles/bot/index.js';
import { wrapWords } from '../help-text.js';
import { stamp } from './time.js';

const quote = (text: string, max = 60): string => {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

/** The column the banner's values start at, after `  events from the platform  `. */
const VALUE_COLUMN = 28;

/** bot-sim's banner: where the platform sends events, where answers go; within 80 columns. */
export function formatBotSimListening(event: BotListeningEvent, c: ChalkInstance): string {
  const aside = wrapWords(
    `(any path before /<token> works too: --bot-provider-url ${event.eventsUrl.replace(/\/<token>$/, '/bot')})`,
    78 - VALUE_COLUMN,
  ).map((line) => `${' '.repeat(VALUE_COLUMN)}${c.dim(line)}`);
  return [
    `${c.bold('svc bot-sim')} listening on ${c.cyan(event.url)}`,
    `  events from the platform  POST ${c.cyan(event.eventsUrl)}`,
    ...aside,
    `  answers to the platform   ${event.platformUrl ? c.cyan(event.platformUrl) : c.yellow('nowhere (set --platform-url)')}`,
    ...(event.tokenUrl ? [`  token endpoint            POST ${c.cyan(event.tokenUrl)}`] : []),
  ].join('\n');
}

/** One aligned line per exchange: `←` came in to bot-sim, `→` went out of it. */
export function formatBotSimEvent(event: BotSimEvent, c: ChalkInstance): string {
  const at = c.dim(stamp(event.protocolMs));
  switch (event.type) {
    case 'bot-received': {
      const reply = 'status' in event.reply ? event.reply.status : event.reply.noReply;
      const mark = reply === 200 ? c.green(String(reply)) : c.red(String(reply));
      const what = event.buttonId
        ? `button ${event.buttonId}`
        : event.text === undefined
          ? ''
          : quote(event.text);
      const fault = event.fault === 'none' ? '' : c.yellow(` fault ${event.fault}`);
      const rule = event.rule ? c.dim(` rule ${event.rule}`) : '';
      return `${at}  ${c.green('←')} ${c.bold(event.event.padEnd(17))} ${c.dim(`chat ${event.chatId ?? '?'} #${event.attempt}`)} ${what} -> ${mark}${fault}${rule}`;
    }
    case 'request-rejected':
      return `${at}  ${c.red('✗')} ${event.method} ${event.path} -> ${event.status} ${event.code}: ${event.message}`;
    case 'bot-sent': {
      const ok = event.status === 200;
      const mark = ok ? c.green(String(event.status)) : c.red(String(event.status ?? 'no answer'));
      const what = event.text === undefined ? '' : ` ${quote(event.text)}`;
      const kind = event.messageType ? c.dim(` ${event.messageType}`) : '';
      return `${at}  ${c.magenta('→')} ${c.bold(event.event.padEnd(17))} ${c.dim(`chat ${event.chatId}`)}${kind}${what} -> ${mark}${event.error ? c.red(` ${event.error}`) : ''}`;
    }
    case 'bot-token': {
      const colour = event.action === 'failed' || event.action === 'refused' ? c.red : c.dim;
      const life =
        event.expiresInMs === undefined ? '' : ` valid ${(event.expiresInMs / 1000).toFixed(0)} s`;
      return `${at}  ${colour(`token ${event.action}${life}`)}${event.reason ? c.dim(` (${event.reason})`) : ''}`;
    }
    default: {
      const never: never = event;
      return JSON.stringify(never);
    }
  }
}
