import { describe, expect, it } from 'vitest';
import { tapOutgoing, type PeerSighting } from '../../../src/conversation/peer-tap.js';
import { createJournal, recordExchange } from '../../../src/journal/index.js';

describe('tapOutgoing: what the simulator sent a real peer', () => {
  it('says when the request was sent from its record, not from when it is handed over', () => {
    // a busy process can hand a sighting long after its answer came: the time it was sent
    // must come from the record (its end less its duration), or two hooks sent in order
    // could be read the other way round
    const seen: PeerSighting[] = [];
    const journal = tapOutgoing(createJournal(), new Set(['hook']), (s) => seen.push(s));
    recordExchange(journal, {
      protocolMs: 500,
      durationMs: 40,
      iface: 'hook',
      direction: 'out',
      request: { method: 'POST', url: 'http://x/hooks', body: '{"event_name":"chat_accepted"}' },
      response: { status: 200, body: '{"result":"ok"}' },
    });
    expect(seen).toEqual([
      {
        party: 'hook',
        value: { event_name: 'chat_accepted', $attempt: 1, $reply: { result: 'ok' }, $status: 200 },
        durationMs: 40,
        sentAt: 460,
      },
    ]);
  });

  it('sends no sighting of a request the peer never got', () => {
    const seen: PeerSighting[] = [];
    const journal = tapOutgoing(createJournal(), new Set(['hook']), (s) => seen.push(s));
    recordExchange(journal, {
      protocolMs: 5,
      iface: 'hook',
      direction: 'out',
      request: { method: 'POST', url: 'http://x/hooks', body: '{}' },
      failure: { reason: 'refused', message: 'ECONNREFUSED' },
    });
    expect(seen).toEqual([]);
  });
});
