import type { Clock } from '../../clock.js';
import { getText, postJson } from '../../http/client.js';
import {
  attemptOffsetMs,
  CHANNEL_DELIVERY_POLICY,
  type DeliveryPolicy,
} from '../../contract/timing.js';
import { createListener, type AgentMessageEvent } from '../../roles/integrator/index.js';
import { compact } from '../../compact.js';
import type { Journal } from '../../journal/index.js';
import { describeWallTime } from '../../clock.js';
import type { ConformCase } from './case.js';
import { recordPost } from './observed.js';

/** The svc simulator's control API as found at `<base>/_sim/state`. */
export interface SimControl {
  base: string;
  /** `Authorization` for a simulator started with a control token; empty otherwise */
  headers: Record<string, string>;
  state: {
    channels: Array<{ id: string; integratorUrl?: string }>;
    timeScale?: unknown;
    /** whether agents were online when the state was read (spec 3: status 1) */
    agentsOnline?: unknown;
  };
}

export interface RedeliveryCaseOptions {
  channelUrl: string;
  publicId: string;
  clock: Clock;
  integratorListenPort?: number;
  toleranceMs?: number;
  control: () => SimControl | undefined;
  /** why `control()` is undefined: no control API, or one that wants a token */
  controlProblem?: () => string;
  newSender: () => string;
  /** the schedule to expect (a profile's; default spec 8's 3 attempts 3 s apart) */
  policy?: DeliveryPolicy;
  /** the profile it is from, named in the checks */
  profile?: string;
  /** the run's observations (observed.ts): the embedded listener journals into it */
  journal?: Journal;
  /** waits until conform's bot handed over the chat where this text was written (platform-bot.ts) */
  handedOver?: (customerText: string) => Promise<void>;
}

const TIMEOUT_MS = 10_000;

/**
 * Why a case that needs the svc control API is skipped: the control API wants a token conform
 * was not given (`problem` says so; the case says what it `cannot` do then), or there is none.
 */
export function whyNoControl(
  problem: string | undefined,
  cannot: string,
  noControlApi: string,
): string {
  return problem?.includes('control token') === true ? `${problem}: ${cannot}` : noControlApi;
}

/** What the agent writes in the redelivery case (the one agent message conform has sent). */
export const REDELIVERY_TEXT = 'Redelivery check';

/**
 * spec 8: "3 attempts, 3 seconds apart, until a valid reply". An embedded `listen` fails
 * the first two attempts; the platform is driven through its control API to send one agent
 * message; attempts must arrive at 0, 3 and 6 s and attempt 3's ok must end the series.
 */
export function buildRedeliveryCase(options: RedeliveryCaseOptions): ConformCase {
  const { clock } = options;
  const tolerance = options.toleranceMs ?? 1000;
  const { policy, interval, count, offsets, source, names } = scheduleOf(options);
  return {
    name: `redelivery schedule seen from the integrator (${offsets.join(', ')} s)`,
    spec: ['4.2', '8'],
    async run(ctx) {
      const control = options.control();
      if (!control) {
        const why = whyNoControl(
          options.controlProblem?.(),
          'no agent message can be sent to watch its attempts',
          'the platform exposes no svc control API (GET /_sim/state, POST /_sim/agent/message) to make an agent write; run `svc-cli listen --fail-first 2` as its integrator and watch the attempts',
        );
        for (const name of names) ctx.skip(name, why);
        return;
      }
      // spec 8's 0/3/6 s are read on this clock: a platform on another scale cannot match them
      const mismatch = describeScaleMismatch(control.state.timeScale, clock.timeScale, tolerance);
      if (mismatch !== undefined) {
        for (const name of names) ctx.skip(name, mismatch);
        return;
      }
      const { listener, seriesOf } = await watchAttempts(options, count);
      const channel = control.state.channels.find((c) => c.id === options.publicId);
      const previous = channel?.integratorUrl;
      try {
        if (previous !== listener.url) {
          const set = await postJson({
            url: `${control.base}/_sim/channels/integrator-url`,
            headers: control.headers,
            body: JSON.stringify({ channelId: options.publicId, url: listener.url }),
            timeoutMs: TIMEOUT_MS,
            clock,
          });
          if (!set.ok || set.status !== 200) {
            for (const name of names)
              ctx.skip(
                name,
                `the channel delivers to ${previous ?? 'nowhere'}, not to the embedded listener at ${listener.url}; start the platform with --integrator-url ${listener.url} (fix the port with --integrator-listen-port)`,
              );
            return;
          }
        }
        const customerId = await sendAgentLine(options, control, REDELIVERY_TEXT);
        // Only this message's attempts count: with a bot on the channel, its answer to the
        // customer's message reaches the same listener, failed twice too.
        const id = await agentLineDeliveryId(control, customerId, REDELIVERY_TEXT, clock);
        const ours = (): AgentMessageEvent[] =>
          seriesOf({ id, customer: customerId, text: REDELIVERY_TEXT });
        // Wait until the last attempt (or the series' end), then an interval more for a stray one.
        const waitFor = async (n: number, until: number): Promise<void> => {
          while (ours().length < n && clock.now() < until)
            await clock.sleep(Math.max(1, Math.min(100, until - clock.now())));
        };
        const startedAt = clock.now();
        await waitFor(
          count,
          startedAt + attemptOffsetMs(policy, count) + policy.attemptTimeoutMs + tolerance * 2,
        );
        const first = ours()[0]?.protocolMs;
        for (const [i, name] of names.slice(0, count).entries()) {
          await ctx.check(name, () => {
            const at = ours()[i]?.protocolMs;
            if (at === undefined || first === undefined)
              return [
                `attempt ${i + 1} never arrived; expected ${count} attempts, ${interval / 1000} s apart, until a valid reply (${source})`,
              ];
            const offset = at - first;
            const want = attemptOffsetMs(policy, i + 1);
            return Math.abs(offset - want) <= tolerance
              ? { note: `arrived at +${(offset / 1000).toFixed(3)} s` }
              : [
                  `attempt ${i + 1} arrived at ${(offset / 1000).toFixed(2)} s; expected ${want / 1000} s ± ${tolerance} ms${describeWallTime(tolerance, clock)} (${source})`,
                ];
          });
        }
        const last = ours()[count - 1]?.protocolMs;
        if (last === undefined) {
          ctx.skip(
            names[count] ?? '',
            `attempt ${count} never arrived, so there was no valid reply to end the series`,
          );
        } else {
          await waitFor(count + 1, last + interval + tolerance);
          await ctx.check(names[count] ?? '', () =>
            ours().length <= count
              ? []
              : [
                  `another attempt arrived after the valid reply to attempt ${count}; a valid reply ends the series (spec 8)`,
                ],
          );
        }
      } finally {
        if (previous !== listener.url)
          await postJson({
            url: `${control.base}/_sim/channels/integrator-url`,
            headers: control.headers,
            body: JSON.stringify({ channelId: options.publicId, url: previous ?? null }),
            timeoutMs: TIMEOUT_MS,
            clock,
          });
        await listener.close(100);
      }
    },
  };
}

/** An agent message the listener was sent: the event, and whom it was for with what text. */
interface Attempt {
  event: AgentMessageEvent;
  customer?: string;
  text?: string;
}

/** A reply that asks for the message again (spec 8): no reply, or a status other than 2xx. */
const refusedReply = (reply: AgentMessageEvent['reply']): boolean =>
  'noReply' in reply || reply.status < 200 || reply.status >= 300;

/**
 * The embedded listener, failing the first `count - 1` attempts of each message (by its id,
 * spec 2.2), and the attempts of one message it was sent: those with the message's id (the
 * control API's `deliveryId`), and each that came for the same customer with the same text
 * after an attempt of the series the listener refused, whatever its id (spec 8: a refused
 * message is sent again; a platform renaming the retry is redelivery-id's business, so the
 * schedule is judged on the series all the same). Without the id: the customer's and text's.
 */
async function watchAttempts(options: RedeliveryCaseOptions, count: number) {
  const attempts: Attempt[] = [];
  // the listener reports a body (observe) just before the event of the same request
  let body: unknown;
  const listener = await createListener({
    clock: options.clock,
    plan: { failFirst: count - 1 },
    ...compact({ journal: options.journal, port: options.integratorListenPort }),
    portFlag: '--integrator-listen-port',
    observe: (seen) => {
      body = seen.json;
    },
    onEvent: (event) => {
      if (event.type !== 'agent-message') return;
      const sent = (body ?? {}) as { recipient?: { id?: unknown }; message?: { text?: unknown } };
      body = undefined;
      const customer = sent.recipient?.id;
      const text = sent.message?.text;
      attempts.push({
        event,
        ...(typeof customer === 'string' ? { customer } : {}),
        ...(typeof text === 'string' ? { text } : {}),
      });
    },
  });
  const seriesOf = (of: { id?: string | undefined; customer: string; text: string }) => {
    const series: AgentMessageEvent[] = [];
    for (const a of attempts) {
      const same = a.customer === of.customer && a.text === of.text;
      const last = series.at(-1);
      const next =
        of.id === undefined
          ? same
          : a.event.messageId === of.id || (same && last !== undefined && refusedReply(last.reply));
      if (next) series.push(a.event);
    }
    return series;
  };
  return { listener, seriesOf };
}

/**
 * The schedule the case expects (a profile's, else spec 8's): the endpoint fails every attempt
 * but the last, whose ok must end the series; a check per attempt and one for the end.
 */
function scheduleOf(options: RedeliveryCaseOptions) {
  const policy = options.policy ?? CHANNEL_DELIVERY_POLICY;
  const interval = policy.intervalMs;
  const count = policy.attempts;
  const offsets = Array.from(
    { length: count },
    (_, i) => `${attemptOffsetMs(policy, i + 1) / 1000}`,
  );
  const source = options.profile === undefined ? 'spec 8' : `profile ${options.profile}`;
  const names = [
    ...offsets.map((at, i) => `attempt ${i + 1} at ${at} s`),
    `attempt ${count}'s ok ends the series`,
  ];
  return { policy, interval, count, offsets, source, names };
}

/**
 * Opens a chat as a new customer and has the agent answer `text` through the control API, so
 * the platform starts one delivery series to the integrator; returns the customer's id.
 */
async function sendAgentLine(
  options: RedeliveryCaseOptions,
  control: SimControl,
  text: string,
): Promise<string> {
  const { clock } = options;
  const customerId = options.newSender();
  const body = {
    sender: { id: customerId },
    message: { type: 'text', text: 'Please answer me twice late' },
  };
  const startedAt = clock.now();
  const opened = await postJson({
    url: options.channelUrl,
    body: JSON.stringify(body),
    timeoutMs: TIMEOUT_MS,
    clock,
  });
  recordPost(options.journal, clock, { url: options.channelUrl, body, startedAt, outcome: opened });
  if (!opened.ok || opened.status !== 200)
    throw new Error(
      `could not open a chat: ${opened.ok ? `HTTP ${opened.status}` : opened.message}`,
    );
  // spec 3: an agent joins a bot chat after the bot's INVITE_AGENT (agent-joined)
  await options.handedOver?.(body.message.text);
  const sent = await postJson({
    url: `${control.base}/_sim/agent/message`,
    headers: control.headers,
    body: JSON.stringify({ customerId, channelId: options.publicId, text, wait: false }),
    timeoutMs: TIMEOUT_MS,
    clock,
  });
  if (!sent.ok || sent.status >= 300)
    throw new Error(
      `POST /_sim/agent/message: ${sent.ok ? `HTTP ${sent.status} ${sent.body}` : sent.message}`,
    );
  return customerId;
}

/**
 * Why the schedule cannot be judged when the platform's clock (its `/_sim/state` timeScale)
 * and conform's differ by more than the tolerance over the 6 s series; undefined when they
 * agree or the platform does not say. 0 is the virtual clock.
 */
export function describeScaleMismatch(
  theirs: unknown,
  ours: number,
  toleranceMs: number,
): string | undefined {
  if (typeof theirs !== 'number' || theirs === ours) return undefined;
  const advice = 'give both the same --time-scale';
  if (theirs === 0)
    return `the platform runs on a virtual clock and this conform on a real one at time scale ${ours}; ${advice}`;
  if (ours === 0)
    return `the platform runs at time scale ${theirs} and this conform on a virtual clock; ${advice}`;
  const seriesMs = 2 * CHANNEL_DELIVERY_POLICY.intervalMs;
  if (seriesMs * Math.abs(theirs / ours - 1) <= toleranceMs) return undefined;
  return `the platform runs at time scale ${theirs} and this conform at ${ours}, so its 3 s would read as ${((3 * theirs) / ours).toFixed(2)} s here; ${advice}`;
}

/**
 * The message id (spec 2.2 message.id) of the newest agent line `text` in the chat of
 * `customerId`, as the svc control API's GET /_sim/chats shows it; undefined when it does not
 * say (an older simulator): then every attempt the listener sees counts.
 */
async function agentLineDeliveryId(
  control: SimControl,
  customerId: string,
  text: string,
  clock: Clock,
): Promise<string | undefined> {
  for (let tries = 0; tries < 10; tries++) {
    const r = await getText({
      url: `${control.base}/_sim/chats`,
      headers: control.headers,
      timeoutMs: TIMEOUT_MS,
      clock,
    });
    if (!r.ok || r.status !== 200) return undefined;
    const { chats } = JSON.parse(r.body) as {
      chats: Array<{
        customer?: { senderId?: string };
        lines?: Array<{ type?: string; text?: string; deliveryId?: string }>;
      }>;
    };
    const line = chats
      .filter((c) => c.customer?.senderId === customerId)
      .flatMap((c) => c.lines ?? [])
      .filter((l) => l.type === 'agent' && l.text === text)
      .at(-1);
    if (line) return line.deliveryId;
    await clock.sleep(20);
  }
  return undefined;
}
