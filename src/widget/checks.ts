/**
 * Argument checks of the double in plain TS (the browser bundle carries no zod).
 * Reason and error texts are fixed strings, exported so tests match on them.
 */
import type { ContactInfo, OfflineMessage } from './types.js';

/** Failure texts. Only `custom data must be an array` and the two callback reasons are spec text. */
export const REASONS = {
  /** spec 4.5 setCustomData */
  customDataNotArray: 'custom data must be an array',
  /** spec 4.5 isCallbackEnabled */
  callbackDisabled: 'Callback disabled',
  /** spec 4.5 isCallbackEnabled, spelled so */
  callbackUnavailable: 'Callback unavaiable',
  invalidPhone: 'invalid phone number',
  /** spec 4.5 startCall: phone (string) */
  phoneNotString: 'phone must be a string',
  noCallBalance: 'call balance is not positive',
} as const;

export const OFFLINE_ERRORS = {
  notObject: 'offline message must be an object',
  messageRequired: 'message is required',
  contactRequired: 'email or phone is required',
  invalidEmail: 'email is invalid',
  invalidPhone: 'phone is invalid',
  agentsOnline: 'agents are online: start a chat instead of an offline message',
} as const;

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'description'] as const;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plausible e-mail address: one `@`, a dot in the domain, no spaces. */
export const isValidEmail = (value: string): boolean => EMAIL.test(value);

/**
 * Assumption (spec 4.5 "number format is right", format not shown): E.164-like, an optional
 * `+` then 7 to 15 digits; spaces, dots, dashes and parentheses are ignored.
 */
export function isValidPhone(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  return /^\+?\d{7,15}$/.test(value.replace(/[\s().-]/g, ''));
}

/** spec 4.5 setUserToken: a non-blank string. */
export const isValidUserToken = (token: unknown): token is string =>
  typeof token === 'string' && token.trim() !== '';

/**
 * spec 4.5 setUserToken fail: "the given value or false". Read as the script's own
 * `token || false`: a falsy value (undefined, null, '', 0) is reported as false.
 */
export const failedTokenValue = (token: unknown): unknown => token || false;

/**
 * spec 4.5 setContactInfo: name, email, phone, description, all strings. Keeps the string
 * fields; returns the names of fields dropped for not being strings.
 */
export function pickContactInfo(value: unknown): {
  contact: ContactInfo;
  dropped: string[];
  unknown: string[];
} {
  const contact: ContactInfo = {};
  const dropped: string[] = [];
  if (!isRecord(value)) return { contact, dropped: ['(argument)'], unknown: [] };
  for (const field of CONTACT_FIELDS) {
    const v = value[field];
    if (v === undefined) continue;
    if (typeof v === 'string') contact[field] = v;
    else dropped.push(field);
  }
  const known: readonly string[] = CONTACT_FIELDS;
  return { contact, dropped, unknown: Object.keys(value).filter((k) => !known.includes(k)) };
}

/**
 * spec 4.5 sendOfflineMessage: validation first, then whether sending is possible.
 * Assumptions: `message` is required, and so is a way to answer (email or phone); while
 * agents are online the offline form is not shown, so sending is impossible.
 */
export function checkOfflineMessage(
  value: unknown,
  online: boolean,
): { ok: true; message: OfflineMessage } | { ok: false; error: string } {
  if (!isRecord(value)) return { ok: false, error: OFFLINE_ERRORS.notObject };
  for (const field of [...CONTACT_FIELDS, 'message'] as const) {
    const v = value[field];
    if (v !== undefined && typeof v !== 'string') {
      return { ok: false, error: `${field} must be a string` };
    }
  }
  const { contact } = pickContactInfo(value);
  const text = value.message;
  if (typeof text !== 'string' || text.trim() === '') {
    return { ok: false, error: OFFLINE_ERRORS.messageRequired };
  }
  const email = contact.email?.trim() ?? '';
  const phone = contact.phone?.trim() ?? '';
  if (email === '' && phone === '') return { ok: false, error: OFFLINE_ERRORS.contactRequired };
  if (email !== '' && !isValidEmail(email))
    return { ok: false, error: OFFLINE_ERRORS.invalidEmail };
  if (phone !== '' && !isValidPhone(phone))
    return { ok: false, error: OFFLINE_ERRORS.invalidPhone };
  if (online) return { ok: false, error: OFFLINE_ERRORS.agentsOnline };
  return { ok: true, message: { ...contact, message: text } };
}
