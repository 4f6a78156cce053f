import type { ContractIssue, ValidationResult } from '../../contract/types.js';
import { isMediaType, isRecord, variantOfType } from './kinds.js';

/**
 * The chat-channel rules the integrator side needs, used only while `src/contract` (branch
 * `contract`) has no `validate` yet. Same result shape, same issue codes, so output does
 * not change when the zod schemas take over.
 */
const TEXT_LIMIT = 1000; // spec 2.1, 8: longer text is cut, no error

type Issues = ContractIssue[];

const issue = (path: string, code: string, rule: string, spec: string): ContractIssue => ({
  path,
  code,
  rule,
  spec,
  severity: 'error',
});

const isHttpUrl = (value: unknown): boolean =>
  typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value);
const isPositiveInt = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

function checkString(
  obj: Record<string, unknown>,
  key: string,
  path: string,
  spec: string,
  out: Issues,
): void {
  if (obj[key] !== undefined && typeof obj[key] !== 'string') {
    out.push(issue(`${path}.${key}`, 'type', 'must be a string', spec));
  }
}

/** spec 2.1: sender.id required and non-empty; photo an http(s) link. spec 2.2: recipient.id. */
function checkParty(value: Record<string, unknown>, side: string, out: Issues): void {
  if (side === 'customer') {
    const sender = value.sender;
    if (!isRecord(sender)) {
      out.push(issue('sender', 'required', 'required object with id', '2.1'));
      return;
    }
    if (typeof sender.id !== 'string' || sender.id === '') {
      out.push(
        issue(
          'sender.id',
          'required',
          'required non-empty string; when empty the message is not sent',
          '2.1',
        ),
      );
    }
    for (const key of ['name', 'phone', 'email', 'invite'])
      checkString(sender, key, 'sender', '2.1', out);
    if (sender.photo !== undefined && !isHttpUrl(sender.photo)) {
      out.push(issue('sender.photo', 'not_http_url', 'must begin with http:// or https://', '2.1'));
    }
    return;
  }
  const recipient = value.recipient;
  if (!isRecord(recipient) || typeof recipient.id !== 'string') {
    out.push(
      issue(
        'recipient.id',
        'required',
        'required string: the customer id received in sender.id',
        '2.2',
      ),
    );
  }
  if (isRecord(value.sender)) {
    for (const key of ['name', 'photo']) checkString(value.sender, key, 'sender', '2.2', out);
  }
}

/** spec 2.4: required and optional media fields. */
function checkMedia(message: Record<string, unknown>, variant: string, out: Issues): void {
  if (variant === 'location') {
    const ranges = { latitude: 90, longitude: 180 } as const;
    for (const [key, max] of Object.entries(ranges)) {
      const v = message[key];
      if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > max) {
        out.push(
          issue(`message.${key}`, 'required', `required number from -${max} to ${max}`, '2.4'),
        );
      }
    }
    return;
  }
  if (!isMediaType(variant)) return;
  if (!isHttpUrl(message.file))
    out.push(issue('message.file', 'required', 'required http(s) URL of the file', '2.4'));
  if (typeof message.file_name !== 'string')
    out.push(issue('message.file_name', 'required', 'required string', '2.4'));
  if (!isPositiveInt(message.file_size)) {
    out.push(issue('message.file_size', 'required', 'required positive integer (bytes)', '2.4'));
  }
  if (message.thumb !== undefined && !isHttpUrl(message.thumb)) {
    out.push(issue('message.thumb', 'not_http_url', 'must be an http(s) URL', '2.4'));
  }
  for (const key of ['duration', 'width', 'height']) {
    if (message[key] !== undefined && !isPositiveInt(message[key])) {
      out.push(issue(`message.${key}`, 'not_positive_int', 'must be a positive integer', '2.4'));
    }
  }
  for (const key of ['emoji', 'text', 'performer', 'title'])
    checkString(message, key, 'message', '2.4', out);
}

/**
 * Validates a chat-channel message as `kind` (`channel.customer.text`, `channel.agent.photo`, ...).
 * @example validateChannelFallback('channel.customer.text', { sender: { id: '' }, message: { type: 'text', text: 'hi' } }).ok // false
 */
export function validateChannelFallback(
  kind: string,
  value: unknown,
  strict = false,
): ValidationResult {
  const [, side = '', variant = ''] = kind.split('.');
  const errors: Issues = [];
  const warnings: Issues = [];
  const spec = side === 'customer' ? '2.1' : '2.2';
  if (!isRecord(value)) {
    errors.push(issue('', 'type', 'must be a JSON object', spec));
    return { kind, ok: false, errors, warnings };
  }
  checkParty(value, side, errors);
  const message = value.message;
  if (!isRecord(message)) {
    errors.push(issue('message', 'required', 'required object with type', spec));
    return { kind, ok: false, errors, warnings };
  }
  if (variantOfType(message.type) !== variant) {
    errors.push(
      issue(
        'message.type',
        'kind_mismatch',
        `must be a type of kind ${kind}`,
        variant === 'typing' ? '2.3' : spec,
      ),
    );
  }
  checkString(message, 'id', 'message', spec, errors);
  if (variant === 'text') {
    if (typeof message.text !== 'string') {
      errors.push(issue('message.text', 'required', 'required when type is "text"', spec));
    } else if (side === 'customer' && [...message.text].length > TEXT_LIMIT) {
      warnings.push({
        ...issue(
          'message.text',
          'too_long',
          `longer than ${TEXT_LIMIT} characters; the platform cuts it`,
          '2.1',
        ),
        severity: 'warning',
      });
    }
  }
  checkMedia(message, variant, errors);
  const ok = errors.length === 0 && (!strict || warnings.length === 0);
  return { kind, ok, ...(ok ? { data: value } : {}), errors, warnings };
}

/** Detects a channel kind from shape: `recipient` means agent, `sender.id` customer. */
export function detectChannelKindFallback(value: unknown): string | undefined {
  if (!isRecord(value) || !isRecord(value.message)) return undefined;
  const variant = variantOfType(value.message.type);
  if (variant === undefined) return undefined;
  if (isRecord(value.recipient)) return `channel.agent.${variant}`;
  if (isRecord(value.sender) && 'id' in value.sender) return `channel.customer.${variant}`;
  return undefined;
}
