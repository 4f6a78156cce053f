import type { ChalkInstance } from 'chalk';
import type { HookPlatformEvent } from '../../platform/events.js';
import { stamp } from './time.js';
import { plural } from '../../plural.js';

const INDENT = '             ';

/**
 * The simulator's hook events (interface D) as aligned lines, in the style of
 * formatPlatformEvent: protocol time, arrow, what. crm data renders as the agent sees it.
 */
export function formatHookPlatformEvent(event: HookPlatformEvent, c: ChalkInstance): string {
  const at = c.dim(stamp(event.protocolMs));
  switch (event.type) {
    case 'hook-sent':
      return `${at}  ${c.magenta('→')} hook ${c.bold(event.event)}${event.chatId === undefined ? '' : c.dim(` chat ${event.chatId}`)}  ${c.dim(`POST ${event.url}`)}`;
    case 'hook-reply': {
      if (event.verdict === 'no-reply')
        return `${at}    ${c.red('✗')} hook ${event.event}: no usable reply (no redelivery)`;
      const result =
        event.result === undefined ? '' : c.dim(` result ${JSON.stringify(event.result)}`);
      if (event.verdict === 'ok') {
        const warn =
          event.warnings.length > 0
            ? c.yellow(`  ${plural(event.warnings.length, 'warning')}`)
            : '';
        return `${at}    ${c.green('✓')} hook ${event.event} reply conforms${result}${warn}`;
      }
      // the issues print once, under the `violation` line the platform emits next (the one
      // --quiet keeps); listed here too, each reply's issues stood twice
      return `${at}    ${c.red('✗')} hook ${event.event} reply breaks the contract${result}`;
    }
    case 'crm-data': {
      if (!event.shown)
        return `${at}  ${c.yellow('crm data not shown')} ${c.dim(`chat ${event.chatId}: ${event.reason ?? ''}`)}`;
      // spec 6.2: the assign button comes before the custom fields, crm_link under them
      const lines = [
        `${at}  ${c.cyan('crm data')} shown to the agent ${c.dim(`chat ${event.chatId}`)}`,
      ];
      if (event.enableAssign) lines.push(`${INDENT}[ Bind to CRM card ]`);
      for (const field of event.customData ?? [])
        lines.push(
          `${INDENT}${c.bold(field.title ?? '')}${field.title ? ': ' : ''}${field.content ?? ''}`,
        );
      if (event.contactInfo) {
        const info = event.contactInfo;
        lines.push(
          `${INDENT}contact: ${[info.name, info.phone, info.email].filter(Boolean).join(', ')}`,
        );
      }
      if (event.crmLink)
        lines.push(`${INDENT}[ Open in CRM ] ${c.cyan(event.crmLink)}  ${c.dim('(/assign)')}`);
      // a bare {"result":"ok"}: say there was nothing to show, and what would have been
      if (lines.length === 1)
        return `${at}  ${c.cyan('crm data')}: none in the chat_accepted reply ${c.dim(`chat ${event.chatId}: custom_data, contact_info, enable_assign and crm_link show here; /assign needs crm_link (spec 6.2)`)}`;
      return lines.join('\n');
    }
    case 'chat-assigned':
      return `${at}  chat ${event.chatId} assigned to ${c.cyan(event.assignTo)}`;
    case 'offline-message':
      return `${at}  ${c.green('←')} offline form from ${c.bold(event.name ?? event.email ?? 'a visitor')}  ${JSON.stringify(event.message)}`;
    case 'call-status': {
      const colour = event.status === 'error' ? c.red : event.status === 'end' ? c.green : c.cyan;
      const extra = event.reason ?? event.recordUrl ?? '';
      return `${at}  call ${event.callType} ${c.bold(event.phone)} ${colour(event.status)}${extra ? ` ${c.dim(extra)}` : ''}`;
    }
    default: {
      const never: never = event;
      return JSON.stringify(never);
    }
  }
}
