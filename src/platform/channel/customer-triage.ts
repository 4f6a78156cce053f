/**
 * Which contract violations of a customer message block its delivery.
 *
 * spec 2.1, 7.1: only an empty sender.id means "not sent"; a missing required field leaves
 * nothing to deliver. Anything else is delivered and reported as an error with its path:
 * - an invalid optional field (a mobile client's `sender.photo: " "`) is left out: spec 2.1
 *   says display of the avatar is attempted, not guaranteed;
 * - a value the platform can still read (`type_drift`: a numeric sender.id, a numeric-string
 *   file_size) is delivered as sent;
 * - a null optional field is read as absent and left out.
 * Blocking: a required field missing, empty or of another type, a wrong `type`, the
 * prototype / depth guards.
 */
import { validate } from '../../contract/validate.js';
import type { ContractIssue, ValidationResult } from '../../contract/types.js';

export interface CustomerTriage {
  /** true when the message can be delivered (possibly without some fields) */
  deliverable: boolean;
  /** the payload to deliver: the original without the dropped fields (the original itself when none is dropped) */
  payload: unknown;
  /** paths of the optional fields left out (`sender.photo`) */
  dropped: string[];
}

type Segment = string | number;
type Json = Record<string, unknown>;

/** `sender.photo` -> ['sender', 'photo']; `a[0]["x y"]` -> ['a', 0, 'x y'] */
export function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  const pattern = /([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}

/** Removes the field at `path` from `value` (in place); false when there is no such field. */
function removeAt(value: unknown, path: Segment[]): boolean {
  let parent: unknown = value;
  for (const segment of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = (parent as Json)[segment as string];
  }
  const last = path[path.length - 1];
  if (last === undefined || typeof last === 'number') return false;
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return false;
  if (!Object.prototype.hasOwnProperty.call(parent, last)) return false;
  delete (parent as Json)[last];
  return true;
}

/** Guard errors (prototype key, depth) and root errors never make a message deliverable. */
const isGuard = (issue: ContractIssue): boolean => issue.spec === '' || issue.path === '';

/**
 * Decides what the channel does with a customer message that broke the contract.
 * @example triageCustomerMessage('channel.customer.text', body, validate(kind, body))
 */
export function triageCustomerMessage(
  kind: string,
  value: unknown,
  result: ValidationResult,
): CustomerTriage {
  const blocking = result.errors.filter((e) => e.code !== 'type_drift');
  const nulls = result.warnings.filter((w) => w.code === 'null_optional');
  if (blocking.some(isGuard)) return { deliverable: false, payload: value, dropped: [] };
  // nothing to drop (almost every message): the body as it came, not a copy
  if (blocking.length === 0 && nulls.length === 0)
    return { deliverable: true, payload: value, dropped: [] };
  const copy = structuredClone(value);
  const dropped: string[] = [];
  for (const issue of [...blocking, ...nulls]) {
    if (removeAt(copy, parsePath(issue.path)) && !dropped.includes(issue.path)) {
      dropped.push(issue.path);
    }
  }
  if (blocking.length === 0) return { deliverable: true, payload: copy, dropped };
  // What is left must hold every required field: an invalid required field, once removed,
  // shows up as missing.
  const again = validate(kind, copy);
  const deliverable = again.errors.every((e) => e.code === 'type_drift');
  return deliverable
    ? { deliverable, payload: copy, dropped }
    : { deliverable, payload: value, dropped: [] };
}
