import type { ChalkInstance } from 'chalk';
import type { ChatMode } from '../../platform/model.js';
import { plural } from '../../plural.js';

/** The agent console's answer to `/chats`: one entry per chat the simulator holds. */
export interface ConsoleChatsEvent {
  type: 'console-chats';
  chats: { chatId: number; customerId: string; mode: ChatMode; lines: number }[];
}

/**
 * The `/chats` list as the agent reads it, one chat a line.
 * @example formatConsoleChats({ type: 'console-chats', chats: [] }, chalk) // '  no chats yet: ...'
 */
export function formatConsoleChats(event: ConsoleChatsEvent, _c: ChalkInstance): string {
  if (event.chats.length === 0)
    return '  no chats yet: a chat opens when a customer writes to the channel URL';
  return event.chats
    .map(
      (chat) =>
        `  chat ${chat.chatId}  ${chat.customerId}  ${chat.mode}  ${plural(chat.lines, 'line')}`,
    )
    .join('\n');
}
