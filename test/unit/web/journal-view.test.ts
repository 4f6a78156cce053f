// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/web/console/api.js';
import {
  hostPath,
  kindOf,
  matchesFilter,
  recordingText,
} from '../../../src/web/console/journal-view.js';

const entry = (extra: Partial<JournalEntry> = {}): JournalEntry => ({
  seq: 1,
  at: '2026-01-01T00:00:00.000Z',
  protocolMs: 0,
  iface: 'hook',
  direction: 'out',
  request: { method: 'POST', url: 'http://127.0.0.1:9100/hooks?x=1' },
  response: { status: 500 },
  ...extra,
});

describe("the console's journal tab, in parts", () => {
  it('shows a URL as host and path, and anything else as it is', () => {
    expect(hostPath('http://127.0.0.1:9100/hooks?x=1')).toBe('127.0.0.1:9100/hooks');
    expect(hostPath('not a url')).toBe('not a url');
  });

  it('says where the exchanges are recorded, and why a recording stopped', () => {
    const base = { sync: 'batch', written: 10, notWritten: 2, file: 'run.ndjson' };
    expect(recordingText(undefined)).toBe('');
    expect(recordingText({ ...base, state: 'off' })).toBe('');
    expect(recordingText({ ...base, state: 'recording' })).toBe('recording to run.ndjson');
    expect(
      recordingText({
        ...base,
        state: 'stopped',
        failure: { code: 'ENOSPC', reason: 'disk full' },
      }),
    ).toBe('recording stopped: disk full after 10 records (run.ndjson); 2 not written');
  });

  it('names an exchange by its kind, a control call by its path', () => {
    expect(kindOf(entry({ kind: 'hook.chat_accepted' }))).toBe('hook.chat_accepted');
    expect(
      kindOf(entry({ iface: 'control', request: { method: 'GET', url: '/_sim/state' } })),
    ).toBe('control state');
    expect(kindOf(entry())).toBe('hook');
  });

  it('filters on every word: kind, url, method, interface, status', () => {
    expect(matchesFilter(entry(), 'hook 500')).toBe(true);
    expect(matchesFilter(entry(), 'HOOK post')).toBe(true);
    expect(matchesFilter(entry(), 'hook 200')).toBe(false);
    expect(matchesFilter(entry(), '  ')).toBe(true);
  });
});
