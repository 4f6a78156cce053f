import type { ExchangeInput, Journal } from '../journal/journal.js';
import { recordExchange, throughJournal } from '../journal/index.js';

/** A role a real peer plays, as expectations name it. */
export type PeerParty = 'integrator' | 'bot' | 'hook';

/** What the simulator sent a real peer and what came back, as an expectation matches it. */
export interface PeerSighting {
  party: PeerParty;
  value: unknown;
  /** protocol ms from the request's start to its answer or failure: the peer got it that long ago */
  durationMs: number;
  /**
   * protocol ms when the request was sent, where the record says (its end less its duration):
   * the sighting itself may be handed later than the answer came, when the process is busy
   */
  sentAt?: number;
}

const partyOf: Partial<Record<ExchangeInput['iface'], PeerParty>> = {
  channel: 'integrator',
  bot: 'bot',
  hook: 'hook',
};

/**
 * Failures after which the peer may still have read the request: it was connected and sent
 * (a reply that never came, a connection closed mid-reply). Refused, unreachable or cancelled
 * requests never reached it, so they are no sighting of what it received.
 */
const RECEIVED_FAILURES = new Set(['timeout', 'reset', 'error']);

function parsedOr(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A journal that also hands every request the simulator sent to one of `parties` to `sight`,
 * synchronously and before redaction. With a real peer (a user's hook receiver, bot or
 * integrator) nothing of ours runs on its side: the simulator's own record of what it sent
 * and what it was answered is what can honestly be checked. The value has the shape an
 * embedded role observes: the body with `$attempt`, `$reply` and the reply's `$status`.
 * @example createPlatform({ journal: tapOutgoing(createJournal(), new Set(['hook']), push) })
 */
export function tapOutgoing(
  inner: Journal,
  parties: ReadonlySet<PeerParty>,
  sight: (seen: PeerSighting) => void,
): Journal {
  return throughJournal(inner, (input) => {
    const party = partyOf[input.iface];
    if (
      input.direction === 'out' &&
      party !== undefined &&
      parties.has(party) &&
      (input.response !== undefined ||
        (input.failure !== undefined && RECEIVED_FAILURES.has(input.failure.reason)))
    ) {
      const body = parsedOr(input.request.body);
      sight({
        party,
        value: {
          ...(body !== null && typeof body === 'object' ? body : { $body: body }),
          $attempt: input.attempt ?? 1,
          $reply: parsedOr(input.response?.body),
          ...(input.response ? { $status: input.response.status } : {}),
          ...(input.failure ? { $failure: input.failure.reason } : {}),
        },
        durationMs: input.durationMs ?? 0,
        ...(typeof input.protocolMs === 'number'
          ? { sentAt: input.protocolMs - (input.durationMs ?? 0) }
          : {}),
      });
    }
    return recordExchange(inner, input);
  });
}
