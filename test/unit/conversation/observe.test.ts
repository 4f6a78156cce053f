import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formOf, observeRecordings } from '../../../src/conversation/record/observe.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-observe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const record = (seq: number, body: unknown) =>
  JSON.stringify({
    type: 'exchange',
    seq,
    at: '2026-01-01T00:00:00.000Z',
    protocolMs: seq * 10,
    iface: 'channel',
    direction: 'in',
    kind: 'channel.customer.text',
    request: { method: 'POST', url: '/x', body: JSON.stringify(body) },
    response: { status: 200, headers: { 'keep-alive': 'timeout=65' }, body: '{"result":"ok"}' },
  });

describe('formOf', () => {
  it.each([
    ['1', 'id', 'numeric string'],
    ['a1', 'id', 'string'],
    [7, 'id', 'number'],
    [1_700_000_000, 'timestamp', 'number (s timestamp)'],
    [1_700_000_000_000, 'timestamp', 'number (ms timestamp)'],
    [null, 'x', 'null'],
    [[], 'x', 'array'],
    [{}, 'x', 'object'],
    [true, 'x', 'boolean'],
  ])('%j under %s: %s', (value, key, form) => expect(formOf(value, key)).toBe(form));
});

describe('observeRecordings', () => {
  it('sums fields, statuses and Keep-Alive per kind; a torn last line is skipped and counted', async () => {
    const file = write(
      'a.ndjson',
      `${record(1, { sender: { id: 'c1' } })}\n${record(2, { sender: { id: 5 } })}\n{"type":"exch`,
    );
    const skipped = [{ skipped: 0 }];
    const seen = await observeRecordings([file], skipped);
    expect(seen.records).toBe(2);
    expect(skipped).toEqual([{ skipped: 1, firstSkipped: 3 }]);
    const kind = seen.kinds['channel.customer.text']!;
    expect(kind.fields).toEqual({
      sender: { object: 2 },
      'sender.id': { string: 1, number: 1 },
    });
    expect(kind.statuses).toEqual({ '200': 2 });
    expect(kind.headers.keepAlive).toEqual({ 'timeout=65': 2 });
    expect(kind.responseFields).toEqual({ result: { string: 2 } });
  });

  it('leaves out the control API and the events pushed to a widget page (no answer to read)', async () => {
    const push = JSON.stringify({
      type: 'exchange',
      seq: 2,
      at: '2026-01-01T00:00:00.000Z',
      protocolMs: 20,
      iface: 'widget',
      direction: 'out',
      kind: 'widget.push.agent_message',
      request: {
        method: 'GET',
        url: '/_sim/widget/events?visitor=v',
        body: '{"type":"agent_message"}',
      },
      notes: ['sse push', 'id: 1'],
    });
    const seen = await observeRecordings([write('push.ndjson', `${record(1, {})}\n${push}\n`)]);
    expect(seen.records).toBe(1);
    expect(Object.keys(seen.kinds)).toEqual(['channel.customer.text']);
  });

  it('lines that are not records are skipped and counted, as trace skips them', async () => {
    const skipped = [{ skipped: 0 }, { skipped: 0 }];
    const seen = await observeRecordings(
      [
        write('b.ndjson', `{"type":\n${record(1, {})}\n{"type":"other"}\n`),
        write('b2.ndjson', `${record(2, {})}\n`),
      ],
      skipped,
    );
    expect(seen.records).toBe(2);
    // a record came after a skipped line: the file was not just cut short at its end
    expect(skipped).toEqual([{ skipped: 2, firstSkipped: 1, recordAfter: true }, { skipped: 0 }]);
  });

  it('a file with no record, an empty one, a missing one: input errors', async () => {
    await expect(
      observeRecordings([write('c.ndjson', 'not a journal\n{"type":"other"}\n')]),
    ).rejects.toMatchObject({
      code: 'SVC_E_RECORDING',
      message: expect.stringContaining(
        'as a journal: none of its 2 lines is a journal record',
      ) as string,
    });
    await expect(observeRecordings([write('d.ndjson', '\n')])).rejects.toMatchObject({
      code: 'SVC_E_RECORDING',
      message: expect.stringContaining('it holds no exchanges') as string,
    });
    await expect(observeRecordings([join(dir, 'none.ndjson')])).rejects.toMatchObject({
      code: 'SVC_E_READ',
    });
  });
});
