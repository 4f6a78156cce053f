/**
 * The codes a contract issue carries (`ContractIssue.code`), each with what it means, the
 * section it comes from and what to do. `svc-cli explain <code>` and docs/CONTRACT.md read
 * this table; a test checks that every code the schemas and checks write is in it.
 */
export interface RuleCodeInfo {
  /** what the issue says, in a sentence */
  summary: string;
  /** the section of docs/CONTRACT.md that holds the rule */
  spec: string;
  /** what the producer of the payload should change */
  todo: string;
  /** `warning` when the code is always a warning unless `--strict` */
  severity: 'error' | 'warning' | 'either';
}

export const RULE_CODES = {
  required: {
    summary: 'a field the contract requires is missing (or null where null is not allowed)',
    spec: '2.1',
    todo: 'Send the field; the field tables mark every required one.',
    severity: 'error',
  },
  empty: {
    summary: 'a string that must carry a value is empty',
    spec: '2.1',
    todo: 'Send a non-empty value (an empty sender.id means the message is not sent).',
    severity: 'error',
  },
  invalid_type: {
    summary: 'a value has the wrong JSON type',
    spec: '2.1',
    todo: 'Send the type the field table names.',
    severity: 'error',
  },
  invalid_value: {
    summary: 'a value is not one of the allowed values, or matches none of the allowed shapes',
    spec: '2.1',
    todo: 'Use one of the values the field table lists.',
    severity: 'error',
  },
  invalid_format: {
    summary: 'a string does not have the required format',
    spec: '2.4',
    todo: 'Send the value in the format the field table names.',
    severity: 'error',
  },
  too_small: {
    summary: 'a number is below its lower limit',
    spec: '2.4',
    todo: 'Send a value inside the limits of the field table.',
    severity: 'error',
  },
  too_big: {
    summary: 'a number or string is above its upper limit',
    spec: '8',
    todo: 'Send a value inside the limits of the field table.',
    severity: 'error',
  },
  too_few: {
    summary: 'an array has fewer items than it needs',
    spec: '2.5',
    todo: 'Send at least the number of items the field table names.',
    severity: 'error',
  },
  too_many: {
    summary: 'an array has more items than allowed (a BUTTONS message takes at most 3 buttons)',
    spec: '2.5',
    todo: 'Send at most the number of items the limit names.',
    severity: 'error',
  },
  not_http_url: {
    summary: 'a link does not begin with http:// or https://',
    spec: '2.4',
    todo: 'Send an absolute http(s) URL.',
    severity: 'error',
  },
  not_positive_integer: {
    summary: 'a size, duration or dimension is not a positive whole number',
    spec: '2.4',
    todo: 'Send a whole number above 0 (bytes, seconds or pixels).',
    severity: 'error',
  },
  type_drift: {
    summary:
      'a value arrived as the other JSON type: a number for a string id, or a numeric string for a number',
    spec: '2.6',
    todo: 'Send the type the field table names. From the party under test this is an error; in what the platform writes it is a warning (an error with --strict).',
    severity: 'either',
  },
  null_optional: {
    summary: 'an optional field is null; it is read as absent',
    spec: '2.6',
    todo: 'Leave the field out instead of sending null, or pass --strict to treat it as an error.',
    severity: 'warning',
  },
  unknown_field: {
    summary: 'a field the contract does not list; it is accepted and ignored',
    spec: '2.1',
    todo: 'Check the spelling against the field table; fields of the public docs are listed there too.',
    severity: 'warning',
  },
  text_cut: {
    summary: 'message.text is over 1000 characters; the platform delivers it cut to 1000',
    spec: '8',
    todo: 'Split long text into several messages; characters are counted as code points.',
    severity: 'warning',
  },
  data_not_shown: {
    summary:
      'a chat_accepted reply carries data for the agent, but its result is not "ok", so none of it is shown',
    spec: '6.2',
    todo: 'Answer {"result":"ok", ...} (lower case) when the agent should see the data.',
    severity: 'warning',
  },
  content_type: {
    summary:
      'a JSON body came with another Content-Type, or none; the platform takes it, a stricter one may not',
    spec: '4',
    todo: 'Send the header Content-Type: application/json with every JSON body.',
    severity: 'warning',
  },
  timestamp_ms: {
    summary: 'a bot message timestamp looks like milliseconds rather than seconds',
    spec: '2.5',
    todo: 'Send unix time in seconds (Math.floor(Date.now() / 1000)).',
    severity: 'warning',
  },
  out_of_range: {
    summary: 'a latitude or longitude lies outside the range a coordinate can have',
    spec: '2.4',
    todo: 'Send latitude in -90..90 and longitude in -180..180 degrees.',
    severity: 'warning',
  },
  ignored_type: {
    summary: 'a typing notice with a type other than typein or typeout; it is ignored',
    spec: '2.3',
    todo: 'Send typein when typing starts and typeout when it stops.',
    severity: 'warning',
  },
  too_deep: {
    summary: 'the JSON nests deeper than svc-cli reads',
    spec: '2.1',
    todo: 'Send a flatter body; no payload of the contract nests this deep.',
    severity: 'error',
  },
  forbidden_key: {
    summary: 'an object has a __proto__ key, which svc-cli refuses',
    spec: '2.1',
    todo: 'Remove the __proto__ key.',
    severity: 'error',
  },
  invalid_json: {
    summary: 'the body is not JSON',
    spec: '4.1',
    todo: 'Send a JSON body with Content-Type: application/json.',
    severity: 'error',
  },
  unknown_kind: {
    summary: 'the payload matches no kind of the contract',
    spec: '2.1',
    todo: 'Name the kind with --kind (svc-cli schema --list shows them all).',
    severity: 'error',
  },
  wrong_kind: {
    summary: 'a payload of another kind than the exchange expects',
    spec: '4.1',
    todo: 'Send the kind the endpoint takes (section 4 lists each endpoint with its kinds).',
    severity: 'error',
  },
  wrong_method: {
    summary: 'a request with a method the endpoint does not take (the interfaces POST)',
    spec: '4',
    todo: 'Send the request with the method the endpoint table names.',
    severity: 'error',
  },
  unknown_event: {
    summary: 'a hook event whose event_name names no hook event',
    spec: '6.2',
    todo: 'Send one of the event names of section 6.2.',
    severity: 'error',
  },
  no_fallback: {
    summary: 'a BUTTONS or MARKDOWN bot message without its plain-text "text"',
    spec: '2.5',
    todo: 'Send "text" with every bot message: a channel that cannot show buttons shows it.',
    severity: 'error',
  },
  no_reply: {
    summary: 'the peer gave no complete reply within the time the sender waits',
    spec: '8',
    todo: 'Answer at once and do slow work after the reply; the timeouts are in the timing table.',
    severity: 'error',
  },
  http_status: {
    summary: 'the peer answered with an HTTP status the contract does not expect here',
    spec: '4.2',
    todo: 'Answer 200 with a body the endpoint table names.',
    severity: 'error',
  },
} as const satisfies Record<string, RuleCodeInfo>;

export type RuleCode = keyof typeof RULE_CODES;

/** The entry of a rule code (a warning's `warn:` prefix dropped), or undefined. */
export function ruleCodeInfo(code: string): RuleCodeInfo | undefined {
  const bare = code.replace(/^warn:/, '');
  return Object.hasOwn(RULE_CODES, bare) ? RULE_CODES[bare as RuleCode] : undefined;
}
