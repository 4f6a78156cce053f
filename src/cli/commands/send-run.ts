/** The body shared by send-text, send-media, send-location and typing (imported lazily). */
import { createClock } from '../../clock.js';
import { checkChannelUrl } from '../channel-url.js';
import { withScaledTimeout } from '../scaled-timeout.js';
import { SvcError } from '../../errors.js';
import { fileNameOf } from '../../http/file-name.js';
import { FILE_LINK_HINT, isNoFileLink, learnFileSize } from '../../http/file-size.js';
import { assertReachable, WAIT_HINT } from '../../http/reach.js';
import { parseDuration } from '../../duration.js';
import type { FailureReason } from '../../http/client.js';
import {
  buildLocationMessage,
  buildMediaMessage,
  buildTextMessage,
  buildTypingMessage,
  sendCustomerMessage,
  type CustomerPayload,
  type SenderFields,
} from '../../roles/integrator/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { formatSent, type SentEvent } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { withSpinner } from '../render/progress.js';
import type { FileMediaType } from '../../roles/integrator/kinds.js';
import {
  sendLocationOptions,
  sendMediaOptions,
  sendTextOptions,
  typingOptions,
} from './send-options.js';

/** What each of the four commands adds to the shared send options: its positional argument. */
export type SendVariant =
  | { variant: 'text'; text: string }
  | { variant: 'media'; type: FileMediaType }
  | { variant: 'location' }
  | { variant: 'typing'; state: 'start' | 'stop' };

type SendOptions = Resolved<typeof sendTextOptions>;

/** Drops undefined fields (exactOptionalPropertyTypes: absent, never `undefined`). */
const definedOnly = <T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };

function senderOf(o: SendOptions): SenderFields {
  return definedOnly({
    id: o.senderId,
    name: o.name,
    phone: o.phone,
    email: o.email,
    photo: o.photo,
    invite: o.invite,
  });
}

/**
 * --file-size, or the size the file's server tells (learnFileSize). Not told: an input error
 * naming the flag, or with --force no size at all (the contract check flags it).
 */
async function fileSizeOf(
  o: Resolved<typeof sendMediaOptions>,
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  if (o.fileSize !== undefined) return o.fileSize;
  const learned = await learnFileSize({
    url: o.file,
    clock: createClock({ timeScale: o.timeScale }),
    timeoutMs: o.timeout,
    ...(signal ? { signal } : {}),
  });
  if (learned.ok) return learned.size;
  if (o.force) return undefined;
  // a local path: --file-size would only lead on to the contract's http(s) rule
  if (isNoFileLink(learned))
    throw new SvcError('SVC_E_FLAG', `--file ${o.file} is ${learned.reason}.`, FILE_LINK_HINT);
  const code = networkCodeOf(learned.failure);
  // an unreachable file server is a network failure (exit 3), as an unreachable platform is
  if (code !== undefined)
    throw new SvcError(
      code,
      `Could not learn the size of ${o.file}: ${learned.reason} (${new URL(o.file).host}).`,
      code === 'SVC_E_TIMEOUT'
        ? 'Raise --timeout, pass --file-size <bytes>, or check the file server.'
        : 'Check --file and that its server is up, or pass --file-size <bytes>.',
    );
  throw new SvcError(
    'SVC_E_FLAG',
    `Could not learn the size of ${o.file}: ${learned.reason}.`,
    'Pass --file-size <bytes> (or --force to send the message without one).',
  );
}

/**
 * --file-name, or the last segment of the URL's path. A URL whose path ends in `/` has none:
 * an input error naming the flag (the contract's `message.file_name: required` said which
 * field, not which flag), or with --force no name at all (the contract check flags it).
 */
function fileNameFor(o: Resolved<typeof sendMediaOptions>): string | undefined {
  const name = o.fileName ?? fileNameOf(o.file);
  if (name !== undefined || o.force) return name;
  throw new SvcError(
    'SVC_E_FLAG',
    `Could not name the file ${o.file}: its path ends in / and has no last segment to take as the name (message.file_name, spec 2.4).`,
    'Pass --file-name <name> (or --force to send the message without one).',
  );
}

/** The stable code of a request that reached no server; none for an answer or an aborted one. */
function networkCodeOf(
  failure: FailureReason | undefined,
): 'SVC_E_TIMEOUT' | 'SVC_E_UNTRUSTED_CERT' | 'SVC_E_TLS' | 'SVC_E_UNREACHABLE' | undefined {
  switch (failure) {
    case 'timeout':
      return 'SVC_E_TIMEOUT';
    case 'untrusted':
      return 'SVC_E_UNTRUSTED_CERT';
    case 'tls':
      return 'SVC_E_TLS';
    case 'refused':
    case 'reset':
    case 'unreachable':
      return 'SVC_E_UNREACHABLE';
    case 'aborted':
    case 'error':
    case undefined:
      return undefined;
  }
}

/** flags -> options -> payload, per variant. */
async function buildPayload(
  ctx: CliContext,
  input: SendVariant,
  flags: Readonly<Record<string, unknown>>,
): Promise<[SendOptions, CustomerPayload]> {
  const base = (o: SendOptions) =>
    definedOnly({ sender: senderOf(o), messageId: o.messageId }) as {
      sender: SenderFields;
      messageId?: string;
    };
  switch (input.variant) {
    case 'text': {
      const o = resolveForCommand(ctx, sendTextOptions, flags);
      return [o, buildTextMessage({ ...base(o), text: input.text })];
    }
    case 'media': {
      const o = resolveForCommand(ctx, sendMediaOptions, flags);
      const media = definedOnly({
        file: o.file,
        fileName: fileNameFor(o),
        fileSize: await fileSizeOf(o, ctx.signal),
        thumb: o.thumb,
        duration: o.duration,
        width: o.width,
        height: o.height,
        text: o.caption,
      });
      return [o, buildMediaMessage({ ...base(o), type: input.type, media })];
    }
    case 'location': {
      const o = resolveForCommand(ctx, sendLocationOptions, flags);
      return [
        o,
        buildLocationMessage({ ...base(o), latitude: o.latitude, longitude: o.longitude }),
      ];
    }
    case 'typing': {
      const o = resolveForCommand(ctx, typingOptions, flags);
      return [o, buildTypingMessage({ ...base(o), state: input.state })];
    }
    default: {
      const never: never = input;
      throw new Error(`unknown variant ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Sends one customer message and prints the platform's answer; returns the exit code.
 * @example await runSend(ctx, { variant: 'text', text: 'hi' }, givenFlags(cmd));
 */
export async function runSend(
  ctx: CliContext,
  input: SendVariant,
  flags: Readonly<Record<string, unknown>>,
): Promise<number> {
  const [options, payload] = await buildPayload(ctx, input, flags);
  checkChannelUrl(options.channelUrl);
  const waitMs = options.wait === undefined ? undefined : parseDuration(options.wait, '--wait');
  const out = createOutput(ctx, { json: options.json });
  const host = new URL(options.channelUrl).host;
  const result = await withSpinner(
    ctx,
    { json: options.json },
    waitMs === undefined
      ? `sending to ${host}, waiting for the reply`
      : `waiting up to ${String(options.wait)} for ${host}, then sending`,
    (async () => {
      // --wait: a platform started in the background just before (its path is a secret)
      if (waitMs !== undefined) {
        await assertReachable(options.channelUrl, 'the platform', {
          waitMs,
          action: 'send',
          signal: ctx.signal,
          // one code for a platform that does not answer, with --wait or without: a script
          // that tells SVC_E_UNREACHABLE apart must not miss it when --wait is added
          code: 'SVC_E_UNREACHABLE',
        });
      }
      return sendCustomerMessage({
        channelUrl: options.channelUrl,
        payload,
        clock: createClock({ timeScale: options.timeScale }),
        timeoutMs: options.timeout,
        force: options.force,
        chunked: options.chunked,
        signal: ctx.signal,
      }).catch((error: unknown) => {
        const scaled = withScaledTimeout(error, options.timeScale, options.timeout);
        throw scaled instanceof SvcError ? withWaitHint(scaled, waitMs) : scaled;
      });
    })(),
  );
  const event: SentEvent = {
    type: 'sent',
    kind: result.kind,
    status: result.status,
    // a round trip is wall time: the clock's protocol ms read it 100x at --time-scale 0.01
    latencyMs: Math.round(result.latencyMs * options.timeScale),
    body: result.body,
    forced: result.forced,
    verdict: {
      ok: result.verdict.ok,
      errors: result.verdict.errors,
      warnings: result.verdict.warnings,
    },
  };
  // an svc-cli role's "200 ok" is no delivery: the error alone says what happened
  if (result.problem?.code === 'SVC_E_NOT_A_CHANNEL') throw result.problem;
  out.event(result.refusedAsExpected ? { ...event, refusedAsExpected: true } : event, formatSent);
  if (result.problem) throw result.problem;
  if (result.refusedAsExpected) out.note(result.refusedAsExpected);
  return 0;
}

/** A refused connection without --wait: the platform may still be starting, and --wait says so. */
function withWaitHint(problem: SvcError, waitMs: number | undefined): SvcError {
  const refused = (problem.details as { reason?: string } | undefined)?.reason === 'refused';
  if (waitMs !== undefined || !refused || problem.code !== 'SVC_E_UNREACHABLE') return problem;
  return new SvcError(
    problem.code,
    problem.message,
    `${(problem.hint ?? 'Check --channel-url and that the platform is up.').replace(/\.$/, '')}; ${WAIT_HINT}`,
    { details: problem.details },
  );
}
