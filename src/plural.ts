/**
 * A count with its noun, singular for 1: what every summary line says ("1 payload", "37
 * payloads"), never "payload(s)".
 * @example plural(1, 'payload') // '1 payload'
 * @example plural(2, 'reply', 'replies') // '2 replies'
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
