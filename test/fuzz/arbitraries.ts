/** fast-check generators for requests: methods, paths, headers, framings and JSON shapes. */
import fc from 'fast-check';

export type Framing = 'content-length' | 'chunked' | 'none' | 'truncated' | 'short-length';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body: Buffer;
  framing: Framing;
  /** the body goes out in this many pieces */
  pieces: number;
}

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((v) => v.trim());

const segment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '..',
    '.',
    '%2F',
    '__proto__',
    'constructor',
    '9999999999999999999',
    '-1',
    '1',
  ),
);

/** A known path, mutated: a segment added, dropped or replaced; doubled slashes; a query. */
export const pathOf = (paths: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...paths) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...paths),
          fc.nat(4),
          segment,
          fc.constantFrom('drop', 'add', 'swap'),
        )
        .map(([path, at, seg, op]) => {
          const parts = path.split('/');
          const i = Math.min(at + 1, parts.length - 1);
          if (op === 'drop') parts.splice(i, 1);
          else if (op === 'add') parts.splice(i, 0, seg);
          else parts[i] = seg;
          return parts.join('/') || '/';
        }),
    },
    { weight: 1, arbitrary: fc.array(segment, { maxLength: 5 }).map((s) => `/${s.join('/')}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '*',
        '//',
        '///x',
        'http://h/x',
        '/?',
        '/#x',
        `/${'a'.repeat(3000)}`,
      ),
    },
  );

const json = fc.jsonValue({ maxDepth: 4 });

/** Bodies near the contract: customer and agent messages, bot events, hooks, control calls. */
const nearContract = fc.oneof(
  fc.record(
    {
      sender: fc.record(
        { id: fc.oneof(fc.string(), json), name: fc.string() },
        { requiredKeys: [] },
      ),
      message: fc.record(
        {
          type: fc.constantFrom('text', 'typein', 'typeout', 'photo', 'location', 'TEXT', 'x'),
          text: fc.oneof(fc.string({ maxLength: 1200 }), json),
          id: fc.oneof(fc.string(), fc.integer()),
          file: fc.constantFrom('https://x.test/a.png', 'javascript:1', ''),
          file_size: fc.oneof(fc.integer(), fc.double()),
          latitude: fc.double(),
        },
        { requiredKeys: ['type'] },
      ),
      recipient: fc.record({ id: fc.string() }),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      event: fc.constantFrom(
        'CLIENT_MESSAGE',
        'BOT_MESSAGE',
        'INVITE_AGENT',
        'AGENT_JOINED',
        'AGENT_UNAVAILABLE',
        'X',
      ),
      id: fc.oneof(fc.string(), fc.integer()),
      chat_id: fc.oneof(fc.string(), fc.integer()),
      client_id: fc.string(),
      message: fc.record(
        {
          type: fc.constantFrom('TEXT', 'MARKDOWN', 'BUTTONS'),
          text: fc.string(),
          content: fc.string(),
          title: fc.string(),
          timestamp: fc.oneof(fc.integer(), fc.string()),
          buttons: fc.array(
            fc.record({ id: fc.oneof(fc.string(), fc.integer()), text: fc.string() }),
            { maxLength: 5 },
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      event_name: fc.constantFrom(
        'chat_accepted',
        'chat_finished',
        'offline_messages',
        'call_event',
        'nope',
      ),
      chat_id: fc.oneof(fc.integer(), fc.string()),
      widget_id: fc.string(),
      visitor: fc.dictionary(fc.string(), json, { maxKeys: 4 }),
      __proto__: json,
      constructor: json,
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      text: json,
      customerId: json,
      chatId: json,
      typing: json,
      online: json,
      message: json,
      grant_type: fc.constant('client_credentials'),
      client_id: fc.string(),
      client_secret: fc.string(),
    },
    { requiredKeys: [] },
  ),
);

const bodyBytes = fc.oneof(
  { weight: 4, arbitrary: nearContract.map((v) => Buffer.from(JSON.stringify(v))) },
  { weight: 2, arbitrary: json.map((v) => Buffer.from(JSON.stringify(v))) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', ' ', '{', '{"a":', '\ufeff{}', '[]', 'null', '0')
      .map((s) => Buffer.from(s)),
  },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(5000, 0x20)) }, // over the 4 KiB test limit
  { weight: 1, arbitrary: fc.constant(Buffer.from('"\xff\xfe"', 'latin1')) }, // invalid UTF-8
);

export const requestOf = (paths: readonly string[]): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('POST', 'GET') },
      { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH') },
      { weight: 1, arbitrary: token.map((t) => t.toUpperCase()) },
    ),
    path: pathOf(paths),
    headers: fc.array(
      fc.oneof(
        fc.tuple(
          fc.constantFrom('content-type'),
          fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            '',
          ),
        ),
        fc.tuple(
          fc.constantFrom('authorization'),
          fc.constantFrom('Bearer x', 'Basic Zm9v', '', 'Bearer'),
        ),
        fc.tuple(fc.constantFrom('x-fuzz', 'accept', 'user-agent', 'cookie'), headerValue),
      ),
      { maxLength: 4 },
    ),
    body: bodyBytes,
    framing: fc.constantFrom<Framing>(
      'content-length',
      'content-length',
      'chunked',
      'none',
      'truncated',
      'short-length',
    ),
    pieces: fc.integer({ min: 1, max: 3 }),
  });

/** The bytes of a request as the framing says (truncated: less body than declared). */
export function encodeRequest(r: FuzzRequest): Buffer[] {
  const head = [`${r.method} ${r.path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close'];
  for (const [name, value] of r.headers) head.push(`${name}: ${value}`);
  let body: Buffer = r.body;
  switch (r.framing) {
    case 'content-length':
      head.push(`content-length: ${body.length}`);
      break;
    case 'truncated':
      head.push(`content-length: ${body.length + 10}`);
      break;
    case 'short-length':
      head.push(`content-length: ${Math.floor(body.length / 2)}`);
      break;
    case 'chunked':
      head.push('transfer-encoding: chunked');
      body = Buffer.concat([
        ...split(body, r.pieces).flatMap((p) => [
          Buffer.from(`${p.length.toString(16)}\r\n`),
          p,
          Buffer.from('\r\n'),
        ]),
        Buffer.from('0\r\n\r\n'),
      ]);
      break;
    case 'none':
      body = Buffer.alloc(0);
      break;
  }
  return [Buffer.from(`${head.join('\r\n')}\r\n\r\n`), ...split(body, r.pieces)];
}

function split(body: Buffer, pieces: number): Buffer[] {
  const size = Math.max(1, Math.ceil(body.length / pieces));
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) out.push(body.subarray(i, i + size));
  return out.filter((b) => b.length > 0);
}
