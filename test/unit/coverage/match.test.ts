import { describe, expect, it } from 'vitest';
import { coverageItems, createCoverageTally, itemsOfRecord } from '../../../src/coverage/index.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { KINDS } from '../../../src/contract/registry.js';
import { BOT_ERROR_CODES } from '../../../src/contract/bot.js';
import { MUTANTS } from '../../../src/platform/mutants.js';

let seq = 0;
function record(partial: Partial<ExchangeRecord> & Pick<ExchangeRecord, 'iface'>): ExchangeRecord {
  return {
    type: 'exchange',
    seq: ++seq,
    at: '2026-01-01T00:00:00.000Z',
    protocolMs: 0,
    direction: 'in',
    request: { method: 'POST', url: 'http://127.0.0.1/r/ch', body: '{}' },
    ...partial,
  };
}

describe('coverage items', () => {
  it('are derived from the contract: every kind, each bot error code, each delivery attempt', () => {
    const ids = new Set(coverageItems().map((i) => i.id));
    for (const kind of KINDS.keys()) expect(ids).toContain(`kind:${kind}`);
    for (const code of BOT_ERROR_CODES) expect(ids).toContain(`error:bot:${code}`);
    for (const id of [
      'timing:channel:attempt-3',
      'timing:bot:attempt-2',
      'timing:channel:failed',
      'field:channel.customer:sender.name:absent',
      'field:channel.customer:sender.name:null',
      'form:channel.customer:sender.id:number',
      'value:hook events:event_name="offline_messages"',
      'status:postBotEvent:429',
    ])
      expect(ids).toContain(id);
    expect(ids.size).toBe(coverageItems().length); // ids are unique
  });
});

describe('the mutants of the simulator', () => {
  it('each name coverage items that show a run could observe them', () => {
    const ids = new Set(coverageItems().map((i) => i.id));
    for (const mutant of MUTANTS) {
      expect(mutant.exercisedBy.length, mutant.name).toBeGreaterThan(0);
      for (const id of mutant.exercisedBy) expect(ids, `${mutant.name}: ${id}`).toContain(id);
    }
  });
});

describe('itemsOfRecord', () => {
  it('reads a customer text: kind, optional fields present and absent, id forms, status', () => {
    const hits = itemsOfRecord(
      record({
        iface: 'channel',
        kind: 'channel.customer.text',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1/rand/ch',
          body: JSON.stringify({
            sender: { id: 42, name: 'Ann', email: null },
            message: { type: 'text', text: 'hi' },
          }),
        },
        response: { status: 200, body: '{"result":"ok"}' },
      }),
    );
    expect([...hits]).toEqual(
      expect.arrayContaining([
        'kind:channel.customer.text',
        'field:channel.customer:sender.name:present',
        'field:channel.customer:sender.email:null',
        'field:channel.customer:sender.phone:absent',
        'field:channel.customer:message.id:absent',
        'form:channel.customer:sender.id:number',
        'status:postCustomerMessage:200',
      ]),
    );
    expect(hits).not.toContain('field:channel.customer:sender.name:absent');
  });

  it('reads an agent delivery series: the accepted attempt, the framing, the reply', () => {
    const attempt = (n: number, ok: boolean): Set<string> =>
      itemsOfRecord(
        record({
          iface: 'channel',
          direction: 'out',
          kind: 'channel.agent.text',
          attempt: n,
          request: {
            method: 'POST',
            url: 'http://127.0.0.1/listen/ch',
            headers: { 'transfer-encoding': 'chunked' },
            body: JSON.stringify({ recipient: { id: 'c' }, message: { type: 'text', text: 'x' } }),
          },
          response: ok
            ? { status: 200, body: '{"error":{"code":"busy","message":"later"}}' }
            : { status: 500, body: '' },
          notes: [ok ? 'accepted' : 'rejected: 500'],
        }),
      );
    expect(attempt(1, false)).not.toContain('timing:channel:attempt-1');
    const second = attempt(2, true);
    expect(second).toContain('timing:channel:attempt-2');
    expect(second).toContain('timing:channel:chunked');
    expect(second).toContain('error:channel.integrator.reply:error-object');
    expect(attempt(3, false)).toContain('timing:channel:failed');
  });

  it('reads a status read: the answer is the channel.status body', () => {
    const hits = itemsOfRecord(
      record({
        iface: 'channel',
        kind: 'channel.status',
        request: { method: 'GET', url: 'http://127.0.0.1/rand/ch/status' },
        response: { status: 200, body: '0' },
      }),
    );
    expect([...hits].sort()).toEqual([
      'kind:channel.status',
      'status:getChannelStatus:200',
      'value:channel.status:(body)=0',
    ]);
  });

  it('reads a bot refusal: the status of the endpoint and the error code', () => {
    const hits = itemsOfRecord(
      record({
        iface: 'bot',
        kind: 'bot.event.BOT_MESSAGE',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1/providers/p/t',
          body: JSON.stringify({
            event: 'BOT_MESSAGE',
            id: 'e',
            chat_id: '1',
            message: { type: 'TEXT', text: 'x', timestamp: 1_700_000_000_000 },
          }),
        },
        response: {
          status: 401,
          body: '{"error":{"code":"invalid_client","message":"no"}}',
        },
      }),
    );
    expect(hits).toContain('status:postBotEventAuthorized:401');
    expect(hits).toContain('error:bot:invalid_client');
    expect(hits).toContain('timestamp:bot:milliseconds');
    expect(hits).not.toContain('flow:bot:answer');
  });

  it('reads a hook reply field by field, and skips the control API', () => {
    const hits = itemsOfRecord(
      record({
        iface: 'hook',
        direction: 'out',
        kind: 'hook.chat_accepted',
        attempt: 1,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1/hooks',
          body: '{"event_name":"chat_accepted"}',
        },
        response: { status: 200, body: '{"result":"ok","crm_link":"https://crm/1"}' },
      }),
    );
    expect(hits).toContain('kind:hook.chat_accepted.reply');
    expect(hits).toContain('field:hook.chat_accepted.reply:crm_link:present');
    expect(hits).toContain('field:hook.chat_accepted.reply:custom_data:absent');
    expect(hits).toContain('timing:hook:attempt-1');
    expect(itemsOfRecord(record({ iface: 'control' })).size).toBe(0);
  });

  it('counts the latitude of a location as present, where other kinds of its family leave it optional', () => {
    const location = record({
      iface: 'channel',
      kind: 'channel.customer.location',
      request: {
        method: 'POST',
        url: 'http://127.0.0.1/rand/ch',
        body: JSON.stringify({
          sender: { id: 'c-m' },
          message: { type: 'location', latitude: 52.52, longitude: 13.405 },
        }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    });
    const hits = itemsOfRecord(location);
    expect(hits).toContain('field:channel.customer:message.latitude:present');
    expect(hits).toContain('field:channel.customer:message.longitude:present');
    const tally = createCoverageTally();
    tally.add(location);
    const uncovered = tally
      .report()
      .items.filter((i) => i.hits === 0)
      .map((i) => i.label);
    expect(uncovered).not.toContain('channel.customer: message.latitude present');
    expect(uncovered).toContain('channel.customer: message.latitude absent');
  });
});

describe('createCoverageTally', () => {
  it('counts no item and no widget traffic for an event pushed to a page', () => {
    const push = record({
      iface: 'widget',
      direction: 'out',
      kind: 'widget.push.agent_message',
      request: {
        method: 'GET',
        url: 'http://127.0.0.1/_sim/widget/events?visitor=v-1',
        body: '{"type":"agent_message","text":"Hello"}',
      },
      notes: ['sse push', 'id: 2'],
    });
    expect([...itemsOfRecord(push)]).toEqual([]);
    const tally = createCoverageTally();
    tally.add(push);
    expect(tally.report().groups.find((g) => g.iface === 'C')?.counted).toBe(false);
  });

  it('counts the widget only once widget traffic was recorded', () => {
    const tally = createCoverageTally();
    tally.add(
      record({
        iface: 'channel',
        kind: 'channel.customer.typing',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1/r/ch',
          body: '{"sender":{"id":"c"},"message":{"type":"typein"}}',
        },
        response: { status: 200, body: '{"result":"ok"}' },
      }),
    );
    const before = tally.report();
    expect(before.groups.find((g) => g.iface === 'C')?.counted).toBe(false);
    expect(before.overall.covered).toBeGreaterThan(0);
    tally.add(
      record({
        iface: 'widget',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1/_sim/widget/events',
          body: '{"type":"user_token","visitorId":"v","token":"t"}',
        },
      }),
    );
    const after = tally.report();
    expect(after.groups.find((g) => g.iface === 'C')?.counted).toBe(true);
    expect(after.items.find((i) => i.id === 'kind:widget.setUserToken.args')?.hits).toBe(1);
    // a callback the page reported (spec 6.4) counts its arguments' kind
    tally.add(
      record({
        iface: 'widget',
        kind: 'widget.callback',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1/_sim/widget/events',
          body: '{"type":"callback","visitorId":"v","name":"svc_onCallEnd","eventId":4,"event":"call_status"}',
        },
      }),
    );
    expect(
      tally.report().items.find((i) => i.id === 'kind:widget.callback.svc_onCallEnd.args')?.hits,
    ).toBe(1);
    expect(after.overall.total).toBeGreaterThan(before.overall.total);
  });
});
