/** spec 2.2, 4.2: what the platform makes of an integrator's reply, in the words it logs. */
import { describe, expect, it } from 'vitest';
import { judgeChannelReply, judgeChannelReplyByStatus } from '../../../src/contract/timing.js';

const judge = (body: string, status = 200) => judgeChannelReply({ status, body });

describe('judgeChannelReply', () => {
  it('accepts both forms of spec 2.2', () => {
    expect(judge('{"result":"ok"}')).toMatchObject({ accepted: true });
    expect(judge('{"error":{"code":"E1","message":"blocked"}}')).toMatchObject({
      accepted: true,
      errorReply: { code: 'E1', message: 'blocked' },
    });
  });

  it.each([
    ['{"status":"ok"}', 'got {"status":"ok"}'],
    ['{"result":"OK"}', 'result is "OK", not "ok"'],
    ['{"result":true}', 'result is true, not "ok"'],
    ['{"error":{"code":"E1"}}', 'error.message is missing'],
    ['{"error":{"message":"m"}}', 'error.code is missing'],
    ['{"error":"blocked"}', 'error is not an object'],
    ['[1,2]', 'got [1,2]'],
    [
      '"{\\"result\\": \\"ok\\"}"',
      'a JSON string holding an object: encoded twice, send the object itself',
    ],
  ])('%s: says what is wrong (newcomer pass: one line for all of them)', (body, problem) => {
    const judgement = judge(body);
    expect(judgement.accepted).toBe(false);
    expect(judgement).toMatchObject({
      reason: `invalid reply shape: ${problem} (spec 2.2: {"result":"ok"} or {"error":{"code","message"}})`,
    });
  });

  it('accepts fields spec 2.2 does not name, with a warning naming them', () => {
    expect(judge('{"result":"ok"}')).not.toHaveProperty('warning');
    expect(judge('{"result":"ok","timestamp":1764547200000}')).toMatchObject({
      accepted: true,
      warning: 'timestamp: not in the spec (accepted; spec 2.2 names only result)',
    });
    expect(judge('{"error":{"code":"E1","message":"m","retry":true},"ok":false}')).toMatchObject({
      accepted: true,
      warning:
        'ok: not in the spec (accepted; spec 2.2 names only error); error.retry: not in the spec (accepted; spec 2.2 names error.code and error.message)',
    });
  });

  it('a status or a body that is not JSON keeps its own reason', () => {
    expect(judge('{"result":"ok"}', 500)).toMatchObject({ reason: 'HTTP 500' });
    expect(judge('<html>')).toMatchObject({ reason: 'reply is not JSON' });
  });
});

describe('judgeChannelReplyByStatus (the public Chat API page, the docs profile)', () => {
  const byStatus = (body: string, status = 200) => judgeChannelReplyByStatus({ status, body });

  it('a 2xx is accepted whatever its body; one that breaks spec 2.2 carries a warning', () => {
    expect(byStatus('{"result":"ok"}')).toEqual({ accepted: true, json: { result: 'ok' } });
    expect(byStatus('"{\\"result\\": \\"ok\\"}"')).toMatchObject({
      accepted: true,
      json: '{"result": "ok"}',
      warning: expect.stringContaining(
        'a JSON string holding an object: encoded twice, send the object itself (spec 2.2',
      ) as string,
    });
    expect(byStatus('', 204)).toMatchObject({
      accepted: true,
      warning: expect.stringContaining('reply is not JSON; taken as delivered') as string,
    });
    expect(byStatus('{"error":{"code":"E1","message":"blocked"}}', 202)).toMatchObject({
      accepted: true,
      errorReply: { code: 'E1', message: 'blocked' },
    });
  });

  it('a 4xx ends the series with its text; any other status asks for another attempt', () => {
    expect(byStatus('unknown   recipient\n', 422)).toEqual({
      accepted: false,
      final: true,
      reason: "HTTP 422: unknown recipient (rejected, not resent: the public Chat API page's 4xx)",
    });
    expect(byStatus('', 404)).toMatchObject({
      final: true,
      reason: expect.stringMatching(/^HTTP 404 \(/) as string,
    });
    expect(byStatus('{"result":"ok"}', 503)).toEqual({ accepted: false, reason: 'HTTP 503' });
    expect(byStatus('', 302)).toEqual({ accepted: false, reason: 'HTTP 302' });
  });
});
