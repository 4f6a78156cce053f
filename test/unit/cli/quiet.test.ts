import { describe, expect, it } from 'vitest';
import { isEssential } from '../../../src/cli/render/output.js';

const ok = { ok: true, errors: [], warnings: [] };
const issue = { path: 'sender.id', code: 'empty', rule: 'r', spec: '2.1', severity: 'error' };

describe('--quiet keeps what must be seen', () => {
  it.each([
    [{ type: 'listening', url: 'http://127.0.0.1:1' }, true],
    [{ type: 'listener-error', message: 'boom' }, true],
    [{ type: 'target-error', message: 'boom' }, true],
    [{ type: 'violation', issues: [issue] }, true],
    [{ type: 'request-rejected', status: 400 }, true],
    [{ type: 'notice', level: 'warning', message: 'm' }, true],
    [{ type: 'notice', level: 'error', message: 'm' }, true],
    [{ type: 'agent-message', verdict: { ok: false, errors: [issue], warnings: [] } }, true],
    [{ type: 'hook-received', verdict: { ok: true, errors: [], warnings: [issue] } }, true],
    [{ type: 'delivery-done', result: 'failed' }, true],
    [{ type: 'bot-token', action: 'refused' }, true],
    [{ type: 'bot-token', action: 'failed' }, true],
    // bot-sim's answer refused by the platform, or never answered: an error, as its refusals are
    [{ type: 'bot-sent', event: 'BOT_MESSAGE', status: 401, error: 'invalid_client' }, true],
    [{ type: 'bot-sent', event: 'BOT_MESSAGE', error: 'ECONNREFUSED' }, true],
    // the page under test failed: docs/web.md promises the line with --quiet
    [{ type: 'widget-callback-threw', name: 'svc_onAccept', error: 'Error: boom' }, true],
    // one line per good request is what --quiet drops
    [{ type: 'notice', level: 'info', message: 'm' }, false],
    [{ type: 'customer-message', text: 'hi' }, false],
    [{ type: 'agent-message', verdict: ok }, false],
    [{ type: 'hook-received', verdict: ok }, false],
    [{ type: 'delivery-attempt', outcome: 'accepted' }, false],
    [{ type: 'delivery-done', result: 'delivered' }, false],
    [{ type: 'bot-token', action: 'obtained' }, false],
    [{ type: 'bot-sent', event: 'BOT_MESSAGE', status: 200 }, false],
    // the proxy's lines count their issues, and its summary always shows
    [{ type: 'exchange', verdict: { ok: false, errors: 1, warnings: 0 } }, true],
    [{ type: 'exchange', verdict: { ok: true, errors: 0, warnings: 2 } }, true],
    [{ type: 'exchange', verdict: { ok: true, errors: 0, warnings: 0 } }, false],
    [{ type: 'summary', exchanges: 3 }, true],
  ])('%j -> %s', (event, expected) => {
    expect(isEssential(event)).toBe(expected);
  });
});
