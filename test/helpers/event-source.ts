import type { EventSourceLike } from '../../src/widget/index.js';

/**
 * A small EventSource for Node 20 tests (no global EventSource there): reads the stream
 * with fetch and hands each `data:` block to onmessage. No reconnects.
 */
export class TestEventSource implements EventSourceLike {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private readonly controller = new AbortController();

  constructor(readonly url: string) {
    void this.read();
  }

  private async read(): Promise<void> {
    try {
      const response = await fetch(this.url, {
        headers: { accept: 'text/event-stream' },
        signal: this.controller.signal,
      });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      this.onopen?.({});
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data) this.onmessage?.({ data });
        }
      }
    } catch (error) {
      if (!this.controller.signal.aborted) this.onerror?.(error);
    }
  }

  close(): void {
    this.controller.abort();
  }
}
