import type { ExchangeRecord } from './record.js';
import { compact } from '../compact.js';

function queryOf(url: string): Array<{ name: string; value: string }> {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
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
        const reqBody = r.request.body ?? '';
        const resBody = r.response?.body ?? '';
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
            status: r.response?.status ?? 0,
            statusText: r.failure ? r.failure.reason : '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: resHeaders,
            content: {
              size: Buffer.byteLength(resBody),
              mimeType: r.response?.headers?.['content-type'] ?? 'application/json',
              text: resBody,
            },
            redirectURL: '',
            headersSize: -1,
            bodySize: r.response ? Buffer.byteLength(resBody) : -1,
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
            ...compact({ kind: r.kind, attempt: r.attempt, fault: r.fault, notes: r.notes }),
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
