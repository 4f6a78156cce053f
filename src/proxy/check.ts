/**
 * The checks on one proxied exchange: the request's kind from its body and the
 * leg's direction, validated with the rules of `validate` (strict with the party, tolerant of
 * the platform); the answer validated as the kind the leg expects.
 */
import { detectKind } from '../contract/detect.js';
import { validateMaybeHookReply } from '../contract/hook-reply.js';
import { getKind, validate } from '../contract/validate.js';
import type { RuleCode } from '../contract/rule-codes.js';
import type { ContractIssue } from '../contract/types.js';
import type { LegSpec } from './legs.js';

export interface Checked {
  kind?: string;
  errors: ContractIssue[];
  warnings: ContractIssue[];
}

const issue = (code: RuleCode, rule: string, spec: string, path = ''): ContractIssue => ({
  path,
  code,
  rule,
  spec,
  severity: 'error',
});

function parse(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * On the hook leg, a body naming its event in `event` reads as a bot event (spec 6.1) that is
 * none: say where a hook names it (the issue cites spec 6.2), or the line sends the reader to
 * the bot's events.
 */
function eventKeyHint(leg: LegSpec, value: unknown): string {
  const named = (key: string) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && key in value;
  return leg.name === 'receiver' && named('event') && !named('event_name')
    ? '; a hook names its event in event_name'
    : '';
}

/**
 * The request: GET .../status has no body (spec 4.1); every POST carries a payload whose kind
 * must belong to the leg's direction.
 */
export function checkRequest(
  leg: LegSpec,
  method: string,
  path: string,
  raw: string,
  strict = false,
): Checked {
  if (method === 'GET' && leg.name === 'platform' && /\/status\/?$/.test(path)) {
    return { kind: 'channel.status', errors: [], warnings: [] };
  }
  if (method !== 'POST') {
    return {
      errors: [issue('wrong_method', `${method}: the ${leg.caller} only POSTs here`, '4')],
      warnings: [],
    };
  }
  const parsed = parse(raw);
  if (!parsed.ok) {
    return {
      errors: [issue('invalid_json', `the body is not JSON: ${parsed.message}`, '4')],
      warnings: [],
    };
  }
  const detected = detectKind(parsed.value);
  if (detected.kind === undefined) {
    const hint = eventKeyHint(leg, parsed.value);
    return {
      errors: [
        issue(
          'unknown_kind',
          `could not tell the kind: ${detected.reason}${hint}`,
          hint === '' ? '2' : '6.2',
        ),
      ],
      warnings: [],
    };
  }
  const entry = getKind(detected.kind);
  if (entry.direction !== leg.requestDirection) {
    return {
      kind: detected.kind,
      errors: [
        issue(
          'wrong_kind',
          `${detected.kind} goes ${entry.direction}, not ${leg.requestDirection}`,
          entry.spec,
        ),
      ],
      warnings: [],
    };
  }
  // the status GET's request kind names its answer; POST bodies are validated as they are
  const result = validate(detected.kind, parsed.value, { strict });
  return { kind: detected.kind, errors: result.errors, warnings: result.warnings };
}

/**
 * The answer, when the leg says what it must be. `requestBroken`: the request broke the
 * contract, so a 4xx refusing it is the answerer doing right.
 */
export function checkAnswer(
  leg: LegSpec,
  requestKind: string | undefined,
  status: number,
  raw: string,
  strict = false,
  requestBroken = false,
): Checked {
  if (
    leg.name === 'platform' &&
    leg.iface === 'channel' &&
    requestKind !== 'channel.status' &&
    status !== 200 &&
    status !== 404 &&
    !(requestBroken && status >= 400 && status < 500)
  ) {
    // spec 4.1: the message POST answers 200 on success, 404 for an unknown public id; any
    // other status means contacting the platform's support (send-text's SVC_E_CHANNEL_STATUS)
    return {
      errors: [
        issue(
          'http_status',
          `HTTP ${status}; the message POST answers 200 on success, another status means contacting the platform's support`,
          '4.1',
        ),
      ],
      warnings: [],
    };
  }
  if (leg.name === 'receiver' && status !== 200) {
    // spec 4.4, 6.2: a hook is answered with 200 and the event's JSON reply
    return {
      errors: [
        issue('http_status', `HTTP ${status}; expected 200 with the event's JSON reply`, '4.4'),
      ],
      warnings: [],
    };
  }
  const kind = requestKind === undefined ? undefined : leg.answerKind(requestKind, status);
  if (kind === undefined) return { errors: [], warnings: [] };
  const parsed = parse(raw);
  if (!parsed.ok) {
    return {
      kind,
      errors: [
        issue('invalid_json', `the answer is not JSON: ${parsed.message}`, getKind(kind).spec),
      ],
      warnings: [],
    };
  }
  const result = validateMaybeHookReply(kind, parsed.value, { strict });
  return { kind, errors: result.errors, warnings: result.warnings };
}
