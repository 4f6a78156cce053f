// Writes a synthetic NDJSON recording for the trace/report benches (bench/trace.js), made of
// records shaped like the journal writes them (src/journal/record.ts): the same fields, bodies
// and notes a `platform --record` or `replay --record` run writes.
//
// Two shapes:
// - `conversations`: whole chats, 50 under way at once (their records interleave as under
//   load): customer text, chat_accepted hook, an agent message rejected once and redelivered
//   3 s later (same message id), a second customer text, an agent answer, chat_finished with
//   the transcript. 7 exchanges per chat; every invariant holds.
// - `load`: what the platform journals under `svc-cli load channel --customers 100`: customer
//   text / photo / typing payloads cycling through 100 customers, one chat each.
//
// Usage: node bench/trace-recording.js <out.ndjson> <exchanges> [conversations|load]
import { closeSync, openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RUN = 'bench0000001';
const START = Date.parse('2026-11-28T12:00:00.000Z');
const HOOK_CONTEXT = {
  widget_id: 'conversation',
  session: {
    geoip: { country: 'Japan', country_code: 'JP', region: 'Tokyo', city: 'Tokyo' },
    utm: 'utm_source=bing&utm_medium=cpc&utm_campaign=brand',
    ip_addr: '203.0.113.175',
    user_agent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  },
  page: { url: 'https://shop.example.com/checkout', title: 'Checkout — Example Shop' },
  department: { id: 2, name: 'Support' },
  analytics: {},
};
const AGENT = { id: 1, name: 'Alice Agent', email: 'alice@example.com' };
const OK = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '15' },
  body: '{"result":"ok"}',
};
const REJECTED = {
  status: 500,
  headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '67' },
  body: '{"error":{"code":"injected","message":"svc-cli injected HTTP 500"}}',
};

function record(seq, protocolMs, fields, body, response, notes) {
  const text = JSON.stringify(body);
  return JSON.stringify({
    type: 'exchange',
    seq,
    run: RUN,
    at: new Date(START + protocolMs).toISOString(),
    protocolMs,
    ...fields,
    request: {
      method: 'POST',
      url: fields.url,
      headers: { 'content-type': 'application/json', 'content-length': String(text.length) },
      body: text,
    },
    response,
    durationMs: 0.3,
    wallMs: 0.31,
    ...(fields.iface === 'channel' && fields.direction === 'in'
      ? { verdict: { ok: true, errors: [], warnings: [] } }
      : {}),
    notes,
  }).replace(`,"url":"${fields.url}"`, '');
}

const CHANNEL = 'http://127.0.0.1:8080/KtSIjcLAGXf97k3NjdA3Fw/conversation';
const LISTENER = 'http://127.0.0.1:9090/conversation';
const HOOKS = 'http://127.0.0.1:9091/hooks';

/** The exchanges of chat `chat`: [protocolMs offset, writer(seq, ms, the chat's previous seq)]. */
function conversationSteps(chat) {
  const customer = `c-${chat}`;
  const question = `Where is my parcel? Order #${10_000 + chat}`;
  const answer = 'Checking now, one moment please.';
  const follow = 'Thanks, it was shipped yesterday?';
  const reply = 'Yes, it arrives tomorrow before noon.';
  const agentId = `a-${chat}-1`;
  const customerIn = (text) => (seq, at) =>
    record(
      seq,
      at,
      { url: CHANNEL, iface: 'channel', direction: 'in', kind: 'channel.customer.text', chat },
      { sender: { id: customer, name: 'Ann' }, message: { type: 'text', text } },
      { status: 200, body: '{"result":"ok"}' },
      ['transfer: content-length'],
    );
  const agentOut = (text, id, attempt, response, redelivery) => (seq, at, previous) =>
    record(
      seq,
      at,
      {
        url: LISTENER,
        iface: 'channel',
        direction: 'out',
        kind: 'channel.agent.text',
        attempt,
        chat,
        ...(redelivery ? { cause: previous } : {}),
      },
      {
        sender: { name: AGENT.name, photo: 'https://example.com/avatars/alice.png' },
        recipient: { id: customer },
        message: { type: 'text', text, id },
      },
      response,
      ['transfer: content-length', response.status === 200 ? 'accepted' : 'rejected: HTTP 500'],
    );
  const hook = (event, extra) => (seq, at) =>
    record(
      seq,
      at,
      { url: HOOKS, iface: 'hook', direction: 'out', kind: `hook.${event}`, attempt: 1, chat },
      {
        event_name: event,
        chat_id: chat,
        visitor: { number: String(chat), description: '', social: {}, chats_count: 1 },
        ...HOOK_CONTEXT,
        ...extra,
      },
      OK,
      ['transfer: content-length', 'accepted'],
    );
  const line = (type, text) => ({
    timestamp: 1795904885,
    type,
    ...(type === 'agent' ? { agent_id: 1 } : {}),
    message: text,
    text,
  });
  return [
    [0, customerIn(question)],
    [5, hook('chat_accepted', { agent: AGENT })],
    [1200, agentOut(answer, agentId, 1, REJECTED)],
    // the redelivery: 3 s after the first attempt, caused by it (the chat's previous record)
    [4200, agentOut(answer, agentId, 2, OK, true)],
    [9000, customerIn(follow)],
    [15000, agentOut(reply, `a-${chat}-2`, 1, OK)],
    [
      30000,
      hook('chat_finished', {
        agents: [AGENT],
        chat: {
          messages: [
            line('visitor', question),
            line('agent', answer),
            line('visitor', follow),
            line('agent', reply),
          ],
          rate: null,
          blacklisted: false,
        },
      }),
    ],
  ];
}

/** Whole chats, `concurrent` at once, interleaved step by step. */
function* conversations(exchanges, concurrent = 50) {
  let seq = 0;
  let chat = 0;
  const open = [];
  while (seq < exchanges) {
    while (open.length < concurrent) {
      chat++;
      open.push({ chat, base: chat * 700, steps: conversationSteps(chat), next: 0, lastSeq: 0 });
    }
    for (let i = 0; i < open.length && seq < exchanges; i++) {
      const c = open[i];
      const [offset, write] = c.steps[c.next];
      seq++;
      yield write(seq, c.base + offset, c.lastSeq);
      c.lastSeq = seq;
      c.next++;
      if (c.next === c.steps.length) open.splice(i--, 1);
    }
  }
}

/** The platform's journal under `load channel --customers 100`: customer payloads only. */
function* load(exchanges, customers = 100) {
  const kinds = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'photo', 'typing'];
  for (let seq = 1; seq <= exchanges; seq++) {
    const customer = (seq - 1) % customers;
    const kind = kinds[seq % kinds.length];
    const message =
      kind === 'text'
        ? { type: 'text', text: 'Hello, is my order on its way?', id: `load-${seq}` }
        : kind === 'photo'
          ? { type: 'photo', url: 'https://example.com/p.jpg', id: `load-${seq}` }
          : { type: 'typing' };
    yield record(
      seq,
      seq * 0.5,
      {
        url: CHANNEL,
        iface: 'channel',
        direction: 'in',
        kind: `channel.customer.${kind}`,
        chat: customer + 1,
      },
      { sender: { id: `load-customer-${customer}` }, message },
      { status: 200, body: '{"result":"ok"}' },
      ['transfer: content-length'],
    );
  }
}

/**
 * Writes `exchanges` records of the shape to `file`; resolves with its size in bytes.
 * @example const bytes = writeRecording('/tmp/r.ndjson', 1_000_000, 'conversations');
 */
export function writeRecording(file, exchanges, shape = 'conversations') {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let batch = [];
  const flush = () => {
    const text = batch.join('\n') + '\n';
    bytes += writeSync(fd, text);
    batch = [];
  };
  try {
    for (const line of (shape === 'load' ? load : conversations)(exchanges)) {
      batch.push(line);
      if (batch.length === 2000) flush();
    }
    if (batch.length > 0) flush();
  } finally {
    closeSync(fd);
  }
  return bytes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, count = '1000000', shape = 'conversations'] = process.argv.slice(2);
  const bytes = writeRecording(file, Number(count), shape);
  console.log(`${file}: ${count} exchanges, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
}
