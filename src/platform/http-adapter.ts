import type { IncomingMessage, ServerResponse } from 'node:http';
import { flatHeaders, readJsonBody, sendJson } from '../http/body.js';
import {
  listenAt,
  requestPathOf,
  startServer,
  type RunningServer,
  type ServerLimits,
} from '../http/server.js';
import type { PlatformCore } from './core.js';
import type { PlatformRequest, PlatformResponse } from './types.js';
import { errorText } from '../errors.js';
import { endInBatch } from '../http/response-batch.js';

export interface ServePlatformOptions {
  host?: string;
  port?: number;
  /** request body limit in bytes (default 1 MiB -> 413) */
  bodyLimit?: number;
  limits?: ServerLimits;
}

/** Puts the core on a loopback socket: every request is read, handled, answered and journaled. */
export async function servePlatform(
  core: PlatformCore,
  options: ServePlatformOptions = {},
): Promise<RunningServer> {
  const server = await startServer({
    ...listenAt(options),
    handler: (req, res) => handleHttp(core, req, res, options.bodyLimit),
    onHandlerError: (error) =>
      core.emit({
        type: 'notice',
        level: 'error',
        message: `handler failed: ${errorText(error)}`,
        protocolMs: core.clock.now(),
      }),
  });
  core.baseUrl = server.url;
  return server;
}

async function handleHttp(
  core: PlatformCore,
  req: IncomingMessage,
  res: ServerResponse,
  bodyLimit?: number,
): Promise<void> {
  const started = core.clock.now();
  const wallStarted = core.clock.wallNow();
  const url = requestPathOf(req.url);
  const method = req.method ?? 'GET';
  const request: PlatformRequest = {
    method,
    path: url.path,
    query: url.query,
    headers: flatHeaders(req),
  };
  if (method !== 'GET' && method !== 'HEAD') {
    request.body = await readJsonBody(req, bodyLimit === undefined ? {} : { limit: bodyLimit });
  }
  const response = await core.handle(request);
  if (response.stream) {
    res.writeHead(response.status, response.headers ?? {});
    response.stream(
      (chunk) => res.write(chunk),
      (fn) => res.on('close', fn),
    );
    return;
  }
  const text = writeResponse(
    res,
    response,
    request.body?.ok === false && request.body.status === 413,
  );
  const quietRead = method === 'GET' && url.path.startsWith('/_sim/');
  if (quietRead) return;
  const body = request.body;
  core.journal.record({
    protocolMs: started,
    iface: response.record?.iface ?? 'control',
    direction: 'in',
    ...(response.record?.kind ? { kind: response.record.kind } : {}),
    request: {
      method,
      url: `${core.baseUrl}${req.url ?? '/'}`,
      headers: request.headers,
      ...(body ? { body: body.ok ? body.raw : (body.raw ?? `<${body.code}>`) } : {}),
    },
    response: { status: response.status, body: text },
    durationMs: core.clock.now() - started,
    wallMs: core.clock.wallNow() - wallStarted,
    ...(response.record?.verdict ? { verdict: response.record.verdict } : {}),
    notes: [...(body ? [`transfer: ${body.transfer}`] : []), ...(response.record?.notes ?? [])],
  });
}

function writeResponse(
  res: ServerResponse,
  response: PlatformResponse,
  closeAfter: boolean,
): string {
  const text =
    response.body === undefined
      ? ''
      : typeof response.body === 'string'
        ? response.body
        : JSON.stringify(response.body);
  const headers: Record<string, string> = {
    ...(closeAfter ? { connection: 'close' } : {}),
    ...response.headers,
  };
  if (typeof response.body === 'string' && headers['content-type']) {
    res.writeHead(response.status, {
      ...headers,
      'content-length': String(Buffer.byteLength(text)),
    });
    endInBatch(res, text);
  } else {
    sendJson(res, response.status, text, headers);
  }
  return text;
}
