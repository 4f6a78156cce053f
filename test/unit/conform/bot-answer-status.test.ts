/**
 * A bot that answers an event with a success status other than 200 (an async handler's 202, an
 * empty 204) is told what the platform makes of it: no answer, as a timeout (spec 4.3, 8).
 */
import { describe, expect, it } from 'vitest';
import { judgeBotAnswer } from '../../../src/conversation/conform/bot.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

const answered = (status: number, body = ''): ExchangeRecord =>
  ({
    type: 'exchange',
    request: { method: 'POST', url: 'http://127.0.0.1:7000/bot/***' },
    response: { status, body },
  }) as unknown as ExchangeRecord;

describe('judgeBotAnswer of a 2xx other than 200', () => {
  it('says a 204 counts as no answer, and what the platform then does', () => {
    expect(judgeBotAnswer('CLIENT_MESSAGE', answered(204))).toMatchInlineSnapshot(`
      [
        "CLIENT_MESSAGE answered HTTP 204, a success status, but the platform takes only 200 as the regular answer and counts any other status as no answer, as a timeout: it tries again, then hands the customer to an agent (spec 4.3, 7.2, 8); answer CLIENT_MESSAGE with HTTP 200",
      ]
    `);
  });

  it('quotes the body of a 202 and names the notice given up on', () => {
    const [reason] = judgeBotAnswer('AGENT_JOINED', answered(202, '{"status":"accepted"}'));
    expect(reason).toMatch(
      /^AGENT_JOINED answered HTTP 202 \{"status":"accepted"\}, a success status, .* then gives up on AGENT_JOINED: /,
    );
  });

  it('keeps the plain wording for a 3xx and up, and passes a 200', () => {
    expect(judgeBotAnswer('AGENT_JOINED', answered(302))).toEqual([
      'AGENT_JOINED answered HTTP 302; the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8)',
    ]);
    expect(judgeBotAnswer('AGENT_JOINED', answered(200))).toEqual([]);
  });
});
