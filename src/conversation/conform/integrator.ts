import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { postJson } from '../../http/client.js';
import { CHANNEL_DELIVERY_POLICY, judgeChannelReply, shapeProblem } from '../../contract/timing.js';
import { CHANNEL_CONTENT_TYPE } from '../../contract/channel.js';
import { FILE_MEDIA_TYPES } from '../../roles/integrator/kinds.js';
import { shapeSent, type PayloadForms } from '../../platform/payload-forms.js';
import { describeWallTime } from '../../clock.js';
import { quote, type CheckOutcome, type ConformCase } from './case.js';
import { integratorDeliveryUrl } from '../../contract/integrator-url.js';

/**
 * `conform integrator`: we play the platform against someone's agent-message endpoint
 * (spec 4.2): every agent message kind, Content-Length and chunked bodies, a redelivery of
 * one message.id, reply validity (spec 2.2) and reply time (spec 8).
 */
export interface IntegratorSuiteOptions {
  /** the integrator_url; messages go to `<url>/<channel>` (spec 4.2) */
  url: string;
  /** the channel public id in the path (default `conform`) */
  channel?: string;
  clock: Clock;
  /** a profile's payload forms (`--profile`): agent messages sent in them */
  forms?: PayloadForms;
  /** protocol ms an attempt waits for the reply (default spec 8's 3 s; a profile's own) */
  replyLimitMs?: number;
  /**
   * this run's message ids are `conform-<runId>-<n>` (`--run-id` repeats them); default a
   * random UUID each
   */
  runId?: number;
}

const VALID_REPLY = 'expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)';
/** spec 8: each attempt waits at most 3 s (derived from the 9 s figure: an assumption). */
const REPLY_LIMIT_MS = CHANNEL_DELIVERY_POLICY.attemptTimeoutMs;

type AgentMessage = { type: string } & Record<string, unknown>;

/** A sample of each media type of spec 2.4, with its required fields and a few optional ones. */
export function buildSampleMedia(type: string): AgentMessage {
  if (type === 'location') return { type, latitude: 52.520008, longitude: 13.404954 };
  const ext = { video: 'mp4', audio: 'mp3', voice: 'ogg', photo: 'jpg', sticker: 'webp' }[type];
  const name = `conform-${type}.${ext ?? 'pdf'}`;
  return {
    type,
    file: `https://files.example.com/svc-conform/${name}`,
    file_name: name,
    file_size: 48_213,
    ...(type === 'photo' || type === 'video'
      ? { thumb: 'https://files.example.com/svc-conform/thumb.jpg', width: 640, height: 480 }
      : {}),
    ...(type === 'audio' || type === 'voice' || type === 'video' ? { duration: 12 } : {}),
  };
}

/** An agent message as the platform sends it (spec 2.2). */
export function buildAgentPayload(message: AgentMessage, id = `conform-${randomUUID()}`): unknown {
  return {
    sender: { name: 'Conformance Agent', photo: 'https://files.example.com/svc-conform/agent.png' },
    recipient: { id: 'svc-conform-customer' },
    message: { ...message, id },
  };
}

/**
 * POSTs one agent message the way the platform does and judges the reply; returns the
 * reasons it is not conforming (empty when it is), or a warning for an error reply.
 */
export async function postAgentMessage(
  options: IntegratorSuiteOptions & { payload: unknown; chunked: boolean },
): Promise<CheckOutcome> {
  const channel = options.channel ?? 'conform';
  const url = integratorDeliveryUrl(options.url, channel); // spec 4.2
  const limitMs = options.replyLimitMs ?? REPLY_LIMIT_MS;
  const type = (options.payload as { message?: { type?: unknown } }).message?.type;
  const kind = type === 'typein' || type === 'typeout' ? 'typing' : String(type);
  const outcome = await postJson({
    url,
    // a profile's forms (numeric ids ...), as the platform it was learned from sends them
    body: shapeSent(
      { forms: options.forms, clock: options.clock },
      `channel.agent.${kind}`,
      JSON.stringify(options.payload),
    ),
    chunked: options.chunked,
    headers: { 'content-type': CHANNEL_CONTENT_TYPE },
    timeoutMs: limitMs,
    clock: options.clock,
  });
  if (!outcome.ok) {
    return outcome.reason === 'timeout'
      ? [
          `reply time: no complete reply within ${limitMs} ms${describeWallTime(limitMs, options.clock)}; the platform waits at most ${limitMs / 1000} s per attempt, then redelivers (spec 8)`,
        ]
      : [`reply: ${outcome.message}; ${VALID_REPLY}`];
  }
  const judged = judgeChannelReply(outcome);
  if (judged.accepted) {
    const warns = [
      // a valid reply (spec 2.2), but the agent sees an error for this message (spec 7.1): an
      // endpoint that answers every case so passed the suite without a word
      judged.errorReply &&
        `the endpoint answered an error object (${judged.errorReply.code}: ${JSON.stringify(judged.errorReply.message)}): a valid reply (spec 2.2), but the agent is shown an error instead of a delivered message`,
      // fields the reply carries beyond spec 2.2's, as validate warns of them
      judged.warning && `reply: ${judged.warning}`,
    ].filter((w): w is string => typeof w === 'string' && w !== '');
    return warns.length > 0 ? { warn: warns.join('; ') } : [];
  }
  if (outcome.status === 404)
    // 11 bare 404s, the path posted to never said
    return [
      `reply: HTTP 404 at ${url}: the platform posts to <integrator URL>/<channel public id> (spec 4.2); serve that path, or give the id your endpoint serves with --channel (default "conform")`,
    ];
  const what =
    outcome.status !== 200
      ? `HTTP ${outcome.status}`
      : judged.reason === 'reply is not JSON'
        ? `a body that is not JSON (${JSON.stringify(quote(outcome.body, 60))})`
        : withShape(outcome.body);
  return [`reply: ${what} is not a valid reply; ${VALID_REPLY}`];
}

/** Said under a chunked step that failed where the same message with a Content-Length passed. */
const CHUNKED_ONLY =
  'chunked: this body came with Transfer-Encoding: chunked and no Content-Length, as the platform sends it when the channel is set to chunked (spec 4.2); read the body to its end';

/** The reply and what is wrong with its shape, the body quoted once (`got ...` quotes it). */
function withShape(body: string): string {
  const problem = shapeProblem(JSON.parse(body) as unknown);
  return problem.startsWith('got ') ? quote(body) : `${quote(body)} (${problem})`;
}

/** The payloads of one run: each a new message.id, of the run id's when there is one. */
type PayloadOf = (message: AgentMessage) => unknown;

function payloadsOf(options: IntegratorSuiteOptions): PayloadOf {
  const { runId } = options;
  if (runId === undefined) return (message) => buildAgentPayload(message);
  let seq = 0;
  return (message) => buildAgentPayload(message, `conform-${runId}-${++seq}`);
}

function kindCase(
  options: IntegratorSuiteOptions & { payloadOf: PayloadOf },
  name: string,
  spec: string[],
  message: AgentMessage,
): ConformCase {
  return {
    name,
    spec,
    async run(ctx) {
      // spec 4.2: requests may use a Content-Length body or chunked transfer encoding
      const sized = await ctx.check('Content-Length body', () =>
        postAgentMessage({ ...options, payload: options.payloadOf(message), chunked: false }),
      );
      await ctx.check('chunked body', async () => {
        const outcome = await postAgentMessage({
          ...options,
          payload: options.payloadOf(message),
          chunked: true,
        });
        // an endpoint that reads Content-Length bytes gets an empty body here, and
        // "HTTP 400 is not a valid reply" alone does not say why
        return sized && Array.isArray(outcome) && outcome.length > 0
          ? [...outcome, CHUNKED_ONLY]
          : outcome;
      });
    },
  };
}

/** The cases of `conform integrator`, in the order they run. */
export function buildIntegratorCases(suite: IntegratorSuiteOptions): ConformCase[] {
  const options = { ...suite, payloadOf: payloadsOf(suite) };
  return [
    kindCase(options, 'agent text message', ['2.2', '4.2'], {
      type: 'text',
      text: 'Hello from the conformance suite',
    }),
    kindCase(options, 'typing starts (typein)', ['2.3', '4.2'], { type: 'typein' }),
    kindCase(options, 'typing stops (typeout)', ['2.3', '4.2'], { type: 'typeout' }),
    ...[...FILE_MEDIA_TYPES, 'location' as const].map((type) =>
      kindCase(options, `media: ${type}`, ['2.4', '4.2'], buildSampleMedia(type)),
    ),
    {
      name: 'redelivery of one message.id',
      spec: ['4.2', '8'],
      async run(ctx) {
        // spec 8: the platform redelivers until a valid reply; the same message.id comes again
        const payload = options.payloadOf({ type: 'text', text: 'Delivered twice on purpose' });
        await ctx.check('first delivery', () =>
          postAgentMessage({ ...options, payload, chunked: false }),
        );
        await ctx.check('the same message.id again gets a valid reply', () =>
          postAgentMessage({ ...options, payload, chunked: false }),
        );
      },
    },
  ];
}
