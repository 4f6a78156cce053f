import { createHash } from 'node:crypto';
import type { TracedConversation } from './read.js';
import { failedSpan } from './span.js';

/** An attribute value of OTLP/JSON (int64 as a decimal string, as protobuf's JSON mapping). */
export type OtlpValue = { stringValue: string } | { intValue: string } | { boolValue: boolean };

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** SPAN_KIND_SERVER (2): the platform served it; SPAN_KIND_CLIENT (3): the platform sent it */
  kind: 2 | 3;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  /** STATUS_CODE_OK (1) or STATUS_CODE_ERROR (2) */
  status: { code: 1 | 2; message?: string };
}

const hex = (text: string, length: number): string =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

/** The trace id of a conversation: 32 hex digits, stable for its run and chat. */
export const traceIdOf = (run: string, chat: number): string => hex(`${run}/chat/${chat}`, 32);
/** The span id of an exchange: 16 hex digits, stable for its run and seq. */
export const spanIdOf = (run: string, seq: number): string => hex(`${run}/seq/${seq}`, 16);

/** Epoch ms (with a fraction) as the nanoseconds string OTLP/JSON wants; exact past 2^53. */
function nanos(ms: number): string {
  const whole = Math.floor(ms);
  const fraction = Math.round((ms - whole) * 1e6);
  return (BigInt(whole) * 1_000_000n + BigInt(fraction)).toString();
}

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({
  key,
  value: { intValue: String(Math.round(value)) },
});

/** True when an exchange failed (src/trace/span.ts; the browser console draws it too). */
export { failedSpan };

/**
 * The OpenTelemetry spans of one conversation (OTLP/JSON). Times: the protocol time of each
 * exchange from the conversation's first wall-clock stamp, so a virtual-clock replay keeps its
 * 3 s redelivery gaps.
 * @example const spans = toOtlpSpans(conversation);
 */
export function toOtlpSpans(conversation: TracedConversation): OtlpSpan[] {
  const first = conversation.spans[0];
  if (!first) return [];
  const base = first.wallStartMs - first.startMs;
  const traceId = traceIdOf(conversation.run, conversation.chat);
  const present = new Set(conversation.spans.map((s) => s.seq));
  return conversation.spans.map((s) => {
    const failed = failedSpan(s);
    const reason =
      s.failure ?? (s.status !== undefined && s.status >= 400 ? `HTTP ${s.status}` : 'rejected');
    return {
      traceId,
      spanId: spanIdOf(s.run, s.seq),
      ...(s.cause !== undefined && present.has(s.cause)
        ? { parentSpanId: spanIdOf(s.run, s.cause) }
        : {}),
      name: s.kind ?? s.name,
      kind: s.direction === 'in' ? 2 : 3,
      startTimeUnixNano: nanos(base + s.startMs),
      endTimeUnixNano: nanos(base + s.endMs),
      attributes: [
        str('svc.run', s.run),
        int('svc.chat', conversation.chat),
        int('svc.seq', s.seq),
        str('svc.interface', s.iface),
        str('svc.lane', s.lane),
        str('svc.direction', s.direction),
        int('svc.offset_ms', s.startMs - first.startMs),
        ...(s.attempt === undefined ? [] : [int('svc.attempt', s.attempt)]),
        ...(s.status === undefined ? [] : [int('http.response.status_code', s.status)]),
        ...(s.failure === undefined ? [] : [str('svc.failure', s.failure)]),
        ...(s.messageId === undefined ? [] : [str('svc.message_id', s.messageId)]),
        ...(s.event === undefined ? [] : [str('svc.event', s.event)]),
        ...(s.causeBy === undefined ? [] : [str('svc.cause', s.causeBy)]),
      ],
      status: failed ? { code: 2, message: reason } : { code: 1 },
    };
  });
}

/** The resource and scope every span of svc-cli sits under. */
export function otlpEnvelope(version: string): { head: string; tail: string } {
  const resource = { attributes: [str('service.name', 'svc-cli')] };
  const scope = { name: 'svc-cli.trace', version };
  const head = `{"resourceSpans":[{"resource":${JSON.stringify(resource)},"scopeSpans":[{"scope":${JSON.stringify(scope)},"spans":[`;
  return { head, tail: ']}]}]}\n' };
}
