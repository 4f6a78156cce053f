/**
 * A count with its noun, singular for 1: what every summary line says ("1 payload", "37
 * payloads"), never "payload(s)".
 * @example plural(1, 'payload') // '1 payload'
 * @example plural(2, 'reply', 'replies') // '2 replies'
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Words joined as a sentence lists them.
 * @example listed(['a', 'b', 'c']) // 'a, b and c'
 */
export function listed(words: readonly string[]): string {
  return words.length < 2
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
