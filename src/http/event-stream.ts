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

/**
 * An EventSource over a socket for Node 20, which has none: the stream read by
 * `openEventStream`, each event's data (and the last id seen, as EventSource keeps it) handed
 * to `onmessage`. No reconnects. The page-script double takes it where a page has the real one.
 * @example const source = new SocketEventSource(`${base}/_sim/widget/events?visitor=v1`);
 */
export class SocketEventSource {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string; lastEventId?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private readonly controller = new AbortController();

  constructor(readonly url: string) {
    void this.read();
  }

  private async read(): Promise<void> {
    try {
      const read = await openEventStream(this.url, this.controller.signal);
      this.onopen?.({});
      let lastEventId = '';
      await read((data, id) => {
        if (id !== undefined) lastEventId = id;
        this.onmessage?.({ data, lastEventId });
      });
    } catch (error) {
      if (!this.controller.signal.aborted) this.onerror?.(error);
    }
  }

  close(): void {
    this.controller.abort();
  }
}
