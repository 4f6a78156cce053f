import { openEventStream } from '../../src/http/event-stream.js';
import type { EventSourceLike } from '../../src/widget/index.js';

/**
 * A small EventSource for Node 20 tests (no global EventSource there): the stream read by
 * `openEventStream`, each event's data handed to onmessage. No reconnects.
 */
export class TestEventSource implements EventSourceLike {
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
      // EventSource keeps the last id it saw as every later event's lastEventId
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
