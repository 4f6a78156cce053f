/**
 * The console journal's filter (src/web/console/journal-view.ts): every word must match; a
 * status word matches the reply's status, not a port in the URL that happens to contain it.
 */
import { describe, expect, it } from 'vitest';
import { matchesFilter, urlColumnText } from '../../../src/web/console/journal-view.js';
import type { JournalEntry } from '../../../src/web/console/api.js';

const delivery = (status: number | undefined, url = 'http://127.0.0.1:5000/svc'): JournalEntry => ({
  seq: 1,
  at: '2026-11-30T18:00:00.500Z',
  protocolMs: 0,
  iface: 'channel',
  direction: 'out',
  kind: 'channel.agent.text',
  request: { method: 'POST', url },
  ...(status === undefined
    ? { failure: { reason: 'timeout', message: 'no reply in 3 s' } }
    : { response: { status } }),
});

describe('matchesFilter', () => {
  it('matches a status word against the status, not the port 5000 in the URL', () => {
    expect(matchesFilter(delivery(500), 'agent.text 500')).toBe(true);
    expect(matchesFilter(delivery(200), 'agent.text 500')).toBe(false);
    expect(matchesFilter(delivery(200, 'http://127.0.0.1:35001/'), '500')).toBe(false);
  });

  it('matches a status class such as 5xx', () => {
    expect(matchesFilter(delivery(503), '5xx')).toBe(true);
    expect(matchesFilter(delivery(200), '5xx')).toBe(false);
    expect(matchesFilter(delivery(undefined), '5xx')).toBe(false);
  });

  it('still finds the port, the path, the failure reason and the kind as words', () => {
    expect(matchesFilter(delivery(200), ':5000')).toBe(true);
    expect(matchesFilter(delivery(200), '5000')).toBe(true);
    expect(matchesFilter(delivery(200), '/svc post')).toBe(true);
    expect(matchesFilter(delivery(undefined), 'timeout')).toBe(true);
    expect(matchesFilter(delivery(200), 'hook')).toBe(false);
    expect(matchesFilter(delivery(200), '  ')).toBe(true);
  });
  it('finds a push by the sse its status column shows', () => {
    const push: JournalEntry = {
      ...delivery(200, 'http://127.0.0.1:8800/_sim/widget/stream'),
      iface: 'widget',
      kind: 'widget.push.agent_message',
    };
    delete push.response;
    expect(matchesFilter(push, 'sse')).toBe(true);
    expect(matchesFilter(push, 'push sse')).toBe(true);
    expect(matchesFilter(delivery(200), 'sse')).toBe(false);
  });
});

describe('urlColumnText', () => {
  it('shows the path of a request to the simulator itself, the host too of one it sent out', () => {
    const own = '127.0.0.1:8800';
    expect(urlColumnText('http://127.0.0.1:8800/_sim/widget/events', own)).toBe(
      '/_sim/widget/events',
    );
    expect(urlColumnText('http://127.0.0.1:9000/shop', own)).toBe('127.0.0.1:9000/shop');
    expect(urlColumnText('not a url', own)).toBe('not a url');
  });
});
