import { SvcError } from '../../errors.js';

/** Keys that would reach an object's prototype: refused in every --set path. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses `path=value`: the value is JSON when it parses (`42`, `true`, `{"a":1}`, `null`),
 * else the raw string.
 * @example parseSetFlag('visitor.name=Jane') // { path: ['visitor', 'name'], value: 'Jane' }
 */
export function parseSetFlag(text: string): { path: string[]; value: unknown } {
  const eq = text.indexOf('=');
  if (eq <= 0) {
    throw new SvcError(
      'SVC_E_SET',
      `Could not use --set "${text}": expected path=value.`,
      'Example: --set visitor.name=Jane --set chat_id=7 --set call.status=error',
    );
  }
  const path = text
    .slice(0, eq)
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.');
  for (const key of path) {
    if (key === '') {
      throw new SvcError(
        'SVC_E_SET',
        `Could not use --set "${text}": empty path segment.`,
        'A path names its keys between dots, and an array item as [n]: --set custom_data[0].title=Order',
      );
    }
    if (FORBIDDEN.has(key)) {
      throw new SvcError(
        'SVC_E_SET_FORBIDDEN_KEY',
        `Could not use --set "${text}": the key "${key}" is refused (prototype pollution guard).`,
        'No event has such a field: --set changes fields of the event, e.g. --set visitor.name=Jane.',
      );
    }
  }
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: the raw string
  }
  return { path, value };
}

type Container = Record<string, unknown> | unknown[];

/**
 * Sets a value by path in a JSON body, creating objects (or arrays for numeric keys) on the
 * way. Mutates and returns `body`.
 * @example setPath({}, ['a', 'b'], 1) // { a: { b: 1 } }
 */
export function setPath(
  body: Record<string, unknown>,
  path: string[],
  value: unknown,
): Record<string, unknown> {
  let node: Container = body;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] ?? '';
    if (FORBIDDEN.has(key)) {
      throw new SvcError('SVC_E_SET_FORBIDDEN_KEY', `The key "${key}" is refused.`);
    }
    const last = i === path.length - 1;
    const record = node as Record<string, unknown>;
    if (last) {
      Object.defineProperty(record, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      break;
    }
    const next = Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
    if (next !== null && typeof next === 'object') {
      node = next as Container;
    } else {
      const fresh: Container = /^\d+$/.test(path[i + 1] ?? '') ? [] : {};
      Object.defineProperty(record, key, {
        value: fresh,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      node = fresh;
    }
  }
  return body;
}
