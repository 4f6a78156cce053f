import { createParser } from 'eventsource-parser';

/** A `text/event-stream` answered with a status other than 200 (or without a body). */
export class EventStreamStatusError extends Error {
  constructor(readonly status: number) {
    super(`the event stream answered HTTP ${status}`);
  }
}

/** Reads an open event stream to its end, calling `onData` with each event's data and id. */
export type EventStreamReader = (onData: (data: string, id?: string) => void) => Promise<void>;

/**
 * Opens a server-sent event stream with fetch; resolves once the server answered, with a
 * reader for the events. Parsing (CRLF, multi-line data, comments, retry fields) is left
 * to eventsource-parser. Aborting `signal` ends the reader with an AbortError.
 * @example const read = await openEventStream(`${base}/_sim/events`, signal); void read((d) => console.log(d));
 */
export async function openEventStream(
  url: string,
  signal: AbortSignal,
): Promise<EventStreamReader> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  if (!response.ok || !response.body) throw new EventStreamStatusError(response.status);
  const body = response.body;
  return async (onData) => {
    const parser = createParser({ onEvent: (event) => onData(event.data, event.id) });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  };
}
