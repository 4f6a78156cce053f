import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffObservations } from '../../../src/conversation/record/diff.js';
import { observeRecordings } from '../../../src/conversation/record/observe.js';
import { formsOf, learnProfile } from '../../../src/conversation/record/profile.js';
import { shapeAnswer } from '../../../src/platform/payload-forms.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-answer-outcome-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OK = '{"result":"ok"}';
const REFUSED = '{"error":{"code":"invalid_request","message":"sender.id: must be non-empty"}}';

/** What the platform was sent: a customer message, unless named. */
const CUSTOMER = {
  iface: 'channel',
  kind: 'channel.customer.text',
  body: '{"sender":{"id":"c1"}}',
};

/** A request (a customer message) the platform answered with `status` and `body`. */
const exchange = (seq: number, status: number, body: string, sent = CUSTOMER) =>
  JSON.stringify({
    type: 'exchange',
    seq,
    at: '2026-01-01T00:00:00.000Z',
    protocolMs: seq * 10,
    iface: sent.iface,
    direction: 'in',
    kind: sent.kind,
    request: { method: 'POST', url: '/x', body: sent.body },
    response: { status, headers: { 'keep-alive': 'timeout=65' }, body },
  });

const recording = (name: string, answers: [number, string][], sent = CUSTOMER) => {
  const path = join(dir, name);
  writeFileSync(path, `${answers.map(([s, b], i) => exchange(i + 1, s, b, sent)).join('\n')}\n`);
  return path;
};

describe('answers learned and compared per outcome', () => {
  it('a profile learns the success answer from 2xx answers only: no error object in it', async () => {
    const seen = await observeRecordings([
      recording('real.ndjson', [
        [200, OK],
        [400, REFUSED],
      ]),
    ]);
    const kind = learnProfile(seen, 'real').kinds!['channel.customer.text']!;
    expect(kind.statuses).toEqual({ '200': 1, '400': 1 });
    expect(kind.answerFields).toEqual({ result: { string: 1 } });
    const forms = formsOf({ 'channel.customer.text': kind })!;
    const record = { iface: 'channel' as const, kind: 'channel.customer.text' };
    expect(shapeAnswer(forms, { status: 200, body: { result: 'ok' }, record }, 0).body).toEqual({
      result: 'ok',
    });
  });

  it('a kind only ever refused teaches no success answer (the simulator keeps its own)', async () => {
    const seen = await observeRecordings([recording('refused.ndjson', [[400, REFUSED]])]);
    const kind = learnProfile(seen, 'real').kinds!['channel.customer.text']!;
    expect(kind.answerFields).toBeUndefined();
    const forms = formsOf({ 'channel.customer.text': kind })!;
    const record = { iface: 'channel' as const, kind: 'channel.customer.text' };
    expect(shapeAnswer(forms, { status: 200, body: { result: 'ok' }, record }, 0).body).toEqual({
      result: 'ok',
    });
  });

  it('record diff: an error object in every success answer is a behaviour difference (spec 7)', async () => {
    const real = await observeRecordings([
      recording('a.ndjson', [
        [200, OK],
        [200, OK],
        [400, REFUSED],
      ]),
    ]);
    const withError = '{"result":"ok","error":{"code":"","message":""}}';
    const sim = await observeRecordings([
      recording('b.ndjson', [
        [200, withError],
        [200, withError],
        [200, withError],
      ]),
    ]);
    const { differences } = diffObservations(real, sim);
    expect(differences.map((d) => [d.severity, d.aspect, d.by, d.detail])).toEqual([
      ['behaviour', 'status', 'platform', 'status codes: a 200 x2, 400 x1; b 200 x3'],
      [
        'behaviour',
        'answer-error',
        'platform',
        '2xx answers carrying an error object (the sender is told it failed, spec 7): a 0 of 2; b 3 of 3',
      ],
    ]);
  });

  it('record diff: 2xx answers that always fail against ones that sometimes do are behaviour', async () => {
    const failed = '{"error":{"code":"busy","message":"try later"}}';
    const always = await observeRecordings([
      recording('always.ndjson', [
        [200, failed],
        [200, failed],
      ]),
    ]);
    const sometimes = await observeRecordings([
      recording('sometimes.ndjson', [
        [200, OK],
        [200, failed],
      ]),
    ]);
    const { differences, counts } = diffObservations(always, sometimes);
    expect(counts.behaviour).toBe(1);
    expect(differences[0]).toMatchObject({
      severity: 'behaviour',
      aspect: 'answer-error',
      subject: 'error',
      a: { 'error object': 2 },
      b: { 'error object': 1, 'no error object': 1 },
    });
    // the same mix on both sides, however often: nothing a peer would not have seen in both
    const also = await observeRecordings([
      recording('also.ndjson', [
        [200, OK],
        [200, OK],
        [200, failed],
      ]),
    ]);
    expect(diffObservations(sometimes, also).differences).toEqual([]);
  });

  it('record diff: error answers are compared with error answers', async () => {
    const a = await observeRecordings([
      recording('ea.ndjson', [
        [200, OK],
        [400, REFUSED],
      ]),
    ]);
    const b = await observeRecordings([
      recording('eb.ndjson', [
        [200, OK],
        [400, '{"error":{"code":7,"message":"no"}}'],
      ]),
    ]);
    expect(diffObservations(a, b).differences.map((d) => [d.aspect, d.detail])).toEqual([
      [
        'error-response-field',
        'error answer error.code: typed differently: a string x1; b number x1',
      ],
    ]);
  });

  it("record diff: a widget visitor's failure answers under 200 are behaviour (spec 7.3)", async () => {
    // the page's startCall posted to the platform's widget side: answered 200 either way
    const call = {
      iface: 'widget',
      kind: 'widget.start_call',
      body: '{"type":"start_call","visitorId":"v1","phone":"+15550100"}',
    };
    // spec 7.3 `{result:'fail'}` with its reason; svc-cli's widget transport's `{ok:false}`
    for (const [ok, fail] of [
      ['{"result":"ok"}', '{"result":"fail","reason":"Callback unavailable"}'],
      ['{"ok":true}', '{"ok":false,"error":"Could not start the call: no agent is online"}'],
    ] as const) {
      const answered = await observeRecordings([recording('call-ok.ndjson', [[200, ok]], call)]);
      const refused = await observeRecordings([recording('call-fail.ndjson', [[200, fail]], call)]);
      const { differences, counts } = diffObservations(answered, refused);
      expect(differences.map((d) => [d.severity, d.aspect, d.detail, d.a, d.b])).toEqual([
        [
          'behaviour',
          'answer-error',
          "2xx answers telling the visitor's page it failed (result fail, spec 7.3): a 0 of 1; b 1 of 1",
          { 'no failure': 1 },
          { failure: 1 },
        ],
      ]);
      expect(counts.behaviour).toBe(1);
    }
  });
});
