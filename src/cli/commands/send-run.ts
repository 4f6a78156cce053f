/** The body shared by send-text, send-media, send-location and typing (imported lazily). */
import { createClock } from '../../clock.js';
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
import {
  resolveOptions,
  sendLocationSchema,
  sendMediaSchema,
  sendTextSchema,
  typingSchema,
  type OptionSources,
  type SendOptions,
} from '../options.js';
import { formatSent, type SentEvent } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { withSpinner } from '../render/progress.js';

export type SendVariant = 'text' | 'media' | 'location' | 'typing';

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

/** flags -> options -> payload, per variant. */
function buildPayload(
  variant: SendVariant,
  sources: OptionSources,
): [SendOptions, CustomerPayload] {
  const base = (o: SendOptions) =>
    definedOnly({ sender: senderOf(o), messageId: o.messageId }) as {
      sender: SenderFields;
      messageId?: string;
    };
  switch (variant) {
    case 'text': {
      const o = resolveOptions(sendTextSchema, sources);
      return [o, buildTextMessage({ ...base(o), text: o.text })];
    }
    case 'media': {
      const o = resolveOptions(sendMediaSchema, sources);
      const media = definedOnly({
        file: o.file,
        fileName: o.fileName,
        fileSize: o.fileSize,
        thumb: o.thumb,
        duration: o.duration,
        width: o.width,
        height: o.height,
        text: o.caption,
      });
      return [o, buildMediaMessage({ ...base(o), type: o.type, media })];
    }
    case 'location': {
      const o = resolveOptions(sendLocationSchema, sources);
      return [
        o,
        buildLocationMessage({ ...base(o), latitude: o.latitude, longitude: o.longitude }),
      ];
    }
    case 'typing': {
      const o = resolveOptions(typingSchema, sources);
      return [o, buildTypingMessage({ ...base(o), state: o.state })];
    }
    default: {
      const never: never = variant;
      throw new Error(`unknown variant ${String(never)}`);
    }
  }
}

/**
 * Sends one customer message and prints the platform's answer; returns the exit code.
 * @example await runSend(ctx, 'text', { ...globalFlags(cmd), text }, { text: '<text>' });
 */
export async function runSend(
  ctx: CliContext,
  variant: SendVariant,
  flags: Record<string, unknown>,
  labels: Record<string, string> = {},
): Promise<number> {
  const command = variant === 'typing' ? 'typing' : `send-${variant}`;
  const [options, payload] = buildPayload(variant, {
    flags,
    env: ctx.env,
    cwd: ctx.cwd,
    labels,
    command,
  });
  const out = createOutput(ctx, { json: options.json });
  const result = await withSpinner(
    ctx,
    { json: options.json },
    `sending to ${new URL(options.channelUrl).host}, waiting for the reply`,
    sendCustomerMessage({
      channelUrl: options.channelUrl,
      payload,
      clock: createClock({ timeScale: options.timeScale }),
      timeoutMs: options.timeout,
      force: options.force,
      chunked: options.chunked,
      signal: ctx.signal,
    }),
  );
  const event: SentEvent = {
    type: 'sent',
    kind: result.kind,
    status: result.status,
    latencyMs: Math.round(result.latencyMs),
    body: result.body,
    forced: result.forced,
    verdict: {
      ok: result.verdict.ok,
      errors: result.verdict.errors,
      warnings: result.verdict.warnings,
    },
  };
  out.event(event, formatSent);
  if (result.problem) throw result.problem;
  return 0;
}
