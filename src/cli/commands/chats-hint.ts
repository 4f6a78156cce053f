/** What a `--chat` that matched nothing could name instead, for `trace` and `report`. */

/**
 * The recording's first chat ids (as the trace reader keeps them), and that the command
 * without --chat takes every one.
 * @example chatsHint([1, 2], 'trace') // 'It holds chat 1 and chat 2; without --chat, trace draws every one.'
 */
export function chatsHint(chats: readonly number[] | undefined, command: string): string {
  if (chats === undefined || chats.length === 0)
    return 'It holds no chat: its exchanges are all outside one (status checks, control requests).';
  const named = chats.map((c) => `chat ${c}`);
  const list =
    named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  const more = chats.length >= 5 ? ' (and maybe more)' : '';
  return `It holds ${list}${more}; without --chat, ${command} draws every one.`;
}
