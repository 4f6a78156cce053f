import { isPushRecord, pushIdOf, type ExchangeRecord } from './record.js';
import { compact } from '../compact.js';

function queryOf(url: string): Array<{ name: string; value: string }> {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** A pushed event as it went down the stream: `id: 7\ndata: {...}\n\n`. */
function sseFrame(r: ExchangeRecord): string {
  const id = pushIdOf(r);
  return `${id === undefined ? '' : `id: ${id}\n`}data: ${r.request.body ?? ''}\n\n`;
}

/** Minimal HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) from journal records. */
export function toHar(records: readonly ExchangeRecord[]): unknown {
  return {
    log: {
      version: '1.2',
      creator: { name: 'svc-cli', version: '0.1.0' },
      entries: records.map((r) => {
        const url = r.request.url;
        const reqHeaders = Object.entries(r.request.headers ?? {}).map(([name, value]) => ({
          name,
          value,
        }));
        const resHeaders = Object.entries(r.response?.headers ?? {}).map(([name, value]) => ({
          name,
          value,
        }));
        // an event pushed to a widget page: the stream's GET answered with that event, as a
        // browser's HAR shows an event stream (no request body; the frame as the content)
        const push = isPushRecord(r);
        const reqBody = push ? '' : (r.request.body ?? '');
        const resBody = push ? sseFrame(r) : (r.response?.body ?? '');
        const status = push ? 200 : (r.response?.status ?? 0);
        const mimeType = push
          ? 'text/event-stream'
          : (r.response?.headers?.['content-type'] ?? 'application/json');
        return {
          startedDateTime: r.at,
          time: Math.max(0, r.wallMs ?? 0),
          request: {
            method: r.request.method,
            url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: reqHeaders,
            queryString: queryOf(url),
            ...(reqBody === ''
              ? {}
              : { postData: { mimeType: 'application/json', text: reqBody } }),
            headersSize: -1,
            bodySize: Buffer.byteLength(reqBody),
          },
          response: {
            status,
            statusText: r.failure ? r.failure.reason : '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: resHeaders,
            content: {
              size: Buffer.byteLength(resBody),
              mimeType,
              text: resBody,
            },
            redirectURL: '',
            headersSize: -1,
            bodySize: r.response || push ? Buffer.byteLength(resBody) : -1,
          },
          cache: {},
          timings: { send: 0, wait: Math.max(0, r.wallMs ?? 0), receive: 0 },
          comment: [
            r.iface,
            r.direction,
            r.kind,
            r.attempt ? `attempt ${r.attempt}` : undefined,
            r.fault,
          ]
            .filter(Boolean)
            .join(' '),
          // everything the journal knew, so `record to-fixture` reads a HAR like the NDJSON
          _svc: {
            seq: r.seq,
            iface: r.iface,
            direction: r.direction,
            ...compact({
              run: r.run,
              chat: r.chat,
              cause: r.cause,
              kind: r.kind,
              attempt: r.attempt,
              fault: r.fault,
              notes: r.notes,
            }),
            protocolMs: r.protocolMs,
            durationMs: r.durationMs,
            verdict: r.verdict,
            failure: r.failure,
          },
        };
      }),
    },
  };
}
