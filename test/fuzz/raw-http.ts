/** A raw HTTP/1.1 client on node:net: sends exactly the bytes given, reads until close. */
import { connect } from 'node:net';

export interface RawAnswer {
  /** the status of the first response, undefined when the socket closed without one */
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** the socket was still open when `timeoutMs` ran out (the server held it) */
  timedOut: boolean;
}

/**
 * Writes `chunks` in order and half-closes when `end` is set; resolves when the server closes
 * the socket or after `timeoutMs` (then `timedOut`).
 * @example await sendRaw(port, ['GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'])
 */
export function sendRaw(
  port: number,
  chunks: readonly (string | Buffer)[],
  options: { end?: boolean; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, options.timeoutMs ?? 3000);
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseResponse(Buffer.concat(received).toString('latin1')), timedOut });
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (options.end) socket.end();
    });
  });
}

function parseResponse(text: string): Omit<RawAnswer, 'timedOut'> {
  const head = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || head < 0) return { headers: {}, body: '' };
  const lines = text.slice(0, head).split('\r\n');
  const status = Number(lines[0]?.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(head + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
  else if (headers['content-length'] !== undefined)
    body = body.slice(0, Number(headers['content-length']));
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (eol < 0 || !(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 4 + size);
  }
}
