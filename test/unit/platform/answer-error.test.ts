/**
 * A handler's thrown input error answered once (src/platform/service-table.ts): on the control
 * API with the hint of what to do, on the wire as the spec's error body alone.
 */
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../../src/errors.js';
import { answerError } from '../../../src/platform/service-table.js';
import type { PlatformRequest } from '../../../src/platform/types.js';

const at = (path: string): PlatformRequest => ({
  method: 'POST',
  path,
  query: new URLSearchParams(),
  headers: {},
});

const online = new SvcError(
  'SVC_E_AGENTS_ONLINE',
  'Could not send the offline form: agents are online, so the widget shows the chat instead.',
  'Set agents offline first: POST /_sim/agents {"online":false} or /offline in the console.',
);

describe('answerError', () => {
  it('gives a control API refusal its hint, with the status of its code', () => {
    const answer = answerError(online, at('/_sim/visitor/offline-message'));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: {
        code: 'SVC_E_AGENTS_ONLINE',
        message: online.message,
        hint: online.hint,
      },
    });
  });

  it('keeps the error body of any other path as the spec has it: code and message', () => {
    const answer = answerError(online, at('/abc/channel-1'));
    expect(answer.body).toEqual({
      error: { code: 'SVC_E_AGENTS_ONLINE', message: online.message },
    });
  });
});
