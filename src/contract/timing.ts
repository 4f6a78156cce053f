/**
 * The timing rules of the contract as data (spec 8): when and how often the platform tries to
 * hand a payload to a peer, and which reply of an integrator ends a series (spec 2.2, 4.2).
 * They sit beside the schemas because every side judges the wire by them: the simulator's
 * deliveries, `conform`, `load`, the contract reference and `svc-cli proxy`, which stands
 * between real parties and must not need the simulator to know what the contract asks.
 */

/** When and how often the platform tries to hand a payload to a peer. */
export interface DeliveryPolicy {
  attempts: number;
  /** attempt k starts at (k - 1) x intervalMs after the first */
  intervalMs: number;
  /** each attempt waits at most this long for the whole reply */
  attemptTimeoutMs: number;
  /** a failed series is announced no earlier than this after the first attempt */
  failAfterMs: number;
  /**
   * when attempt k starts after the first, where the gaps differ (a schedule learned from a
   * platform that resends at 3 s, then 10 s); else (k - 1) x intervalMs
   */
  offsetsMs?: readonly number[];
}

/**
 * When attempt `attempt` (1-based) of a series starts after the first, under a policy.
 * @example attemptOffsetMs(CHANNEL_DELIVERY_POLICY, 3) // 6000
 */
export function attemptOffsetMs(policy: DeliveryPolicy, attempt: number): number {
  return policy.offsetsMs?.[attempt - 1] ?? (attempt - 1) * policy.intervalMs;
}

/**
 * spec 8: "3 attempts, 3 seconds apart, until a valid reply ... an unreachable server yields
 * an error after 9 seconds". The 3 s per-attempt wait is derived from the 9 s figure
 * (an assumption: the spec gives no per-attempt figure).
 */
export const CHANNEL_DELIVERY_POLICY: DeliveryPolicy = {
  attempts: 3,
  intervalMs: 3000,
  attemptTimeoutMs: 3000,
  failAfterMs: 9000,
};

/** spec 8: bot exchange timeout, 3 seconds per attempt, 2 attempts, then hand-over. */
export const BOT_DELIVERY_POLICY: DeliveryPolicy = {
  attempts: 2,
  intervalMs: 3000,
  attemptTimeoutMs: 3000,
  failAfterMs: 6000,
};

/** Hooks: timeout and redelivery are not in the spec (6.2, 8); assumed 10 s, one attempt. */
export const HOOK_DELIVERY_POLICY: DeliveryPolicy = {
  attempts: 1,
  intervalMs: 0,
  attemptTimeoutMs: 10_000,
  failAfterMs: 0,
};

/** How a peer's HTTP reply is judged: accepted ends the series, rejected asks for another attempt. */
export type ReplyJudgement =
  | {
      accepted: true;
      json?: unknown;
      errorReply?: { code: string; message: string };
      /** accepted, yet the reply breaks the contract (the docs' reading takes any 2xx) */
      warning?: string;
    }
  | {
      accepted: false;
      reason: string;
      /** the series ends here, no redelivery (the docs' reading of a 4xx) */
      final?: boolean;
    };

/**
 * How the platform reads an integrator's reply: `spec` (spec 2.2, 8: only `{"result":"ok"}` or
 * an error object with 200 ends the series) or `docs` (the public Chat API page: by the status
 * class, docs/FIDELITY.md).
 */
export type ChannelReplyReading = 'spec' | 'docs';

/**
 * spec 2.2, 4.2: a valid integrator reply is HTTP 200 with `{"result":"ok"}` or
 * `{"error":{"code","message"}}`; anything else asks for redelivery.
 */
export function judgeChannelReply(reply: { status: number; body: string }): ReplyJudgement {
  if (reply.status !== 200) return { accepted: false, reason: `HTTP ${reply.status}` };
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    return { accepted: false, reason: 'reply is not JSON' };
  }
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const obj = json as { result?: unknown; error?: unknown };
    if (obj.result === 'ok') return withExtraKeys({ accepted: true, json }, json, ['result']);
    const error = obj.error as { code?: unknown; message?: unknown } | undefined;
    if (
      error &&
      typeof error === 'object' &&
      (typeof error.code === 'string' || typeof error.code === 'number') &&
      typeof error.message === 'string'
    ) {
      return withExtraKeys(
        withExtraKeys(
          {
            accepted: true,
            json,
            errorReply: { code: String(error.code), message: error.message },
          },
          json,
          ['error'],
        ),
        error,
        ['code', 'message'],
        'error.',
      );
    }
  }
  return {
    accepted: false,
    reason: `invalid reply shape: ${shapeProblem(json)} (spec 2.2: {"result":"ok"} or {"error":{"code","message"}})`,
  };
}

/**
 * An accepted reply with fields spec 2.2 does not name (`{"result":"ok","timestamp":...}`):
 * still accepted, as real traffic carries extra fields, with a warning naming them (the
 * simulator's console, conform and the proxy showed nothing where `validate` warns).
 */
function withExtraKeys(
  judgement: ReplyJudgement & { accepted: true },
  value: object,
  known: readonly string[],
  prefix = '',
): ReplyJudgement & { accepted: true } {
  const extra = Object.keys(value).filter((key) => !known.includes(key));
  if (extra.length === 0) return judgement;
  const names = extra.map((key) => `${prefix}${key}`).join(', ');
  const warning = `${names}: not in the spec (accepted; spec 2.2 names ${prefix === '' ? (known[0] === 'result' ? 'only result' : 'only error') : 'error.code and error.message'})`;
  return {
    ...judgement,
    warning: judgement.warning === undefined ? warning : `${judgement.warning}; ${warning}`,
  };
}

/**
 * The public Chat API page's reading of an integrator's reply, by the status class: a 2xx
 * means accepted, whatever the body (one that breaks spec 2.2 is a warning, not a redelivery);
 * a 4xx means rejected and not to be resubmitted (the series fails at once, the body, which
 * may be plain text, is the agent's notice); any other status asks for another attempt.
 * @example judgeChannelReplyByStatus({ status: 200, body: '"ok"' }).accepted // true
 */
export function judgeChannelReplyByStatus(reply: { status: number; body: string }): ReplyJudgement {
  const { status, body } = reply;
  if (status >= 200 && status < 300) {
    const bySpec = judgeChannelReply({ status: 200, body });
    if (bySpec.accepted) return bySpec;
    return {
      accepted: true,
      ...(parsedJson(body) ?? {}),
      warning: `${bySpec.reason}; taken as delivered: the public Chat API page accepts any 2xx`,
    };
  }
  if (status >= 400 && status < 500) {
    const text = body.trim().replace(/\s+/g, ' ');
    const said = text === '' ? '' : `: ${text.length > 120 ? `${text.slice(0, 119)}…` : text}`;
    return {
      accepted: false,
      final: true,
      reason: `HTTP ${status}${said} (rejected, not resent: the public Chat API page's 4xx)`,
    };
  }
  return { accepted: false, reason: `HTTP ${status}` };
}

/** `{ json }` when the body is JSON, else undefined. */
function parsedJson(body: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(body) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * A string whose text is a JSON object: a reply or field encoded twice (a handler returning
 * json.dumps(...) from a framework that encodes that string again).
 * @example holdsJsonObject('{"result":"ok"}') // true
 */
export function holdsJsonObject(input: unknown): boolean {
  if (typeof input !== 'string' || !input.trimStart().startsWith('{')) return false;
  const parsed = parsedJson(input)?.json;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
}

/** What is wrong with a JSON reply that is neither form of spec 2.2, in a few words. */
export function shapeProblem(json: unknown): string {
  const text = JSON.stringify(json) ?? String(json);
  const got = `got ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
  if (holdsJsonObject(json))
    return 'a JSON string holding an object: encoded twice, send the object itself';
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return got;
  const obj = json as { result?: unknown; error?: unknown };
  if ('result' in obj) return `result is ${JSON.stringify(obj.result)}, not "ok"`;
  if (!('error' in obj)) return got;
  const error = obj.error;
  if (error === null || typeof error !== 'object' || Array.isArray(error))
    return 'error is not an object';
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === undefined) return 'error.code is missing';
  if (typeof code !== 'string' && typeof code !== 'number')
    return 'error.code must be a string or a number';
  return message === undefined ? 'error.message is missing' : 'error.message must be a string';
}
