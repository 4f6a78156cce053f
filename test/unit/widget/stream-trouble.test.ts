// @vitest-environment happy-dom
/** A page whose event stream cannot connect is told so at once, not at its first send. */
import { describe, expect, it } from 'vitest';
import { createHttpTransport, type EventSourceLike } from '../../../src/widget/http-transport.js';
import { install } from './setup.js';

describe('widget HTTP transport: the event stream does not connect', () => {
  it('notes it once (the EventSource retries and errs each time), with the URL', async () => {
    const sources: EventSourceLike[] = [];
    class DeadSource implements EventSourceLike {
      onopen: EventSourceLike['onopen'] = null;
      onmessage: EventSourceLike['onmessage'] = null;
      onerror: EventSourceLike['onerror'] = null;
      constructor(readonly url: string) {
        sources.push(this);
      }
      close(): void {}
    }
    const transport = createHttpTransport('http://127.0.0.1:42199', { EventSource: DeadSource });
    const widget = install({ transport });
    await widget.ready;
    expect(sources).toHaveLength(1);
    sources[0]!.onerror?.({});
    sources[0]!.onerror?.({});
    const said = widget.issues.filter((i) => i.method === 'transport');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ code: 'unreachable' });
    expect(said[0]!.message).toContain(
      'the event stream at http://127.0.0.1:42199/_sim/widget/events did not connect',
    );
    expect(said[0]!.message).toContain('the page gets no agent messages until it does');
    // open again, then lost again: said again
    sources[0]!.onopen?.({});
    sources[0]!.onerror?.({});
    expect(widget.issues.filter((i) => i.method === 'transport')).toHaveLength(2);
  });
});
