import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { getText, postJson } from '../../http/client.js';
import { createRouter } from '../../http/router.js';
import { quote, type ConformCase } from './case.js';
import type { Journal } from '../../journal/index.js';
import { recordPost } from './observed.js';
import { buildOfflineFormCase } from './platform-offline.js';
import { buildPageCase } from './platform-page.js';
import { buildRedeliveryCase, type SimControl } from './platform-redelivery.js';
import type { DeliveryPolicy } from '../../contract/timing.js';
import { compact } from '../../compact.js';

/**
 * `conform platform`: we play the integrator and its customers against a platform's
 * channel URL (spec 4.1): 404s, the status body, the 1000-character cut, the empty
 * sender.id, media; against an svc simulator the offline form while agents are online (spec 3,
 * 4.5); the redelivery schedule through an embedded `listen` (spec 8); a page on its widget
 * channel whose callbacks follow the pushes (spec 4.5, 6.4).
 */
export interface PlatformSuiteOptions {
  /** `{base_url}/<random_string>/<channel_public_id>` (spec 4.1) */
  channelUrl: string;
  clock: Clock;
  /** port of the embedded listener for the redelivery cases (default 0) */
  integratorListenPort?: number;
  /** protocol ms an attempt may be early or late (default 1000) */
  toleranceMs?: number;
  /** the simulator's control token, sent as `Authorization: Bearer` to its control API */
  controlToken?: string;
  /** the redelivery schedule to expect (`--profile`; default spec 8's) */
  policy?: DeliveryPolicy;
  /** the profile the schedule is from, named in the checks */
  profile?: string;
  /**
   * the run's observations (the customer messages sent, the embedded listener's agent
   * messages), for the cross-interface invariants (observed.ts)
   */
  journal?: Journal;
  /**
   * with conform's bot on the channel (platform-bot.ts): waits until it handed over the chat
   * where the customer wrote this text, before the agent writes into it
   */
  handedOver?: (customerText: string) => Promise<void>;
}

export interface ChannelUrlParts {
  base: string;
  randomString: string;
  publicId: string;
}

/** A channel URL's path as a route (spec 4.1): the base's path, then the two segments. */
const CHANNEL_PATH = createRouter<true>();
CHANNEL_PATH.add([{ method: '*', path: '/*/:randomString/:publicId', handler: true }]);

/** Splits a channel URL into base, random string and public id (spec 1.3, 4.1). */
export function parseChannelUrl(channelUrl: string): ChannelUrlParts {
  const url = new URL(channelUrl);
  const match = CHANNEL_PATH.match('POST', url.pathname);
  const { '*': prefix = '', randomString, publicId } = match.kind === 'found' ? match.params : {};
  if (!publicId || !randomString) {
    throw new SvcError(
      'SVC_E_CHANNEL_URL',
      `Could not use the channel URL ${channelUrl}: expected {base_url}/<random_string>/<channel_public_id> (spec 4.1).`,
    );
  }
  return { base: `${url.origin}${prefix ? `/${prefix}` : ''}`, randomString, publicId };
}

const TIMEOUT_MS = 10_000;

async function post(options: PlatformSuiteOptions, url: string, body: unknown) {
  const startedAt = options.clock.now();
  const outcome = await postJson({
    url,
    body: JSON.stringify(body),
    timeoutMs: TIMEOUT_MS,
    clock: options.clock,
  });
  recordPost(options.journal, options.clock, { url, body, startedAt, outcome });
  if (!outcome.ok) throw new Error(`POST ${url}: ${outcome.message}`);
  return outcome;
}

/** Why the control API cannot be used, for the checks that need it; undefined when it can. */
export type ControlProblem = string;

/**
 * Reads the svc simulator's control API, when the platform exposes one (`GET <base>/_sim/state`).
 * A simulator started with a control token (docs/SECURITY.md) answers 401 without it: that is
 * a control API all the same, and the checks that need it say which flag opens it.
 */
export async function findSimControl(
  base: string,
  clock: Clock,
  controlToken?: string,
): Promise<SimControl | ControlProblem> {
  const headers: Record<string, string> =
    controlToken === undefined ? {} : { authorization: `Bearer ${controlToken}` };
  const state = await getText({ url: `${base}/_sim/state`, timeoutMs: TIMEOUT_MS, clock, headers });
  const none = 'the platform exposes no svc control API (GET /_sim/state)';
  if (state.ok && state.status === 401)
    return controlToken === undefined
      ? "the platform's control API wants a control token (GET /_sim/state: HTTP 401): pass --control-token with the token its banner printed"
      : "the platform's control API refused the --control-token given (GET /_sim/state: HTTP 401)";
  if (!state.ok || state.status !== 200) return none;
  try {
    const json = JSON.parse(state.body) as { channels?: unknown };
    return Array.isArray(json.channels)
      ? { base, headers, state: json as SimControl['state'] }
      : none;
  } catch {
    return none;
  }
}

const sender = (tag: string) => ({ id: `svc-conform-${tag}-${randomUUID().slice(0, 8)}` });

/**
 * A 404 for a channel URL that names no channel: `why` says which part is wrong ("no channel
 * has that public id", "the random string is not the channel's").
 */
function expect404(
  options: PlatformSuiteOptions,
  url: string,
  why: string,
  spec: string,
): ConformCase['run'] {
  return async (ctx) => {
    await ctx.check('POST a message: 404', async () => {
      const r = await post(options, url, {
        sender: sender('404'),
        message: { type: 'text', text: 'hello?' },
      });
      return r.status === 404
        ? []
        : [`POST: HTTP ${r.status}; expected 404 when ${why} (spec ${spec})`];
    });
    await ctx.check('GET status: 404', async () => {
      const r = await getText({
        url: `${url}/status`,
        timeoutMs: TIMEOUT_MS,
        clock: options.clock,
      });
      if (!r.ok) return [`GET status: ${r.message}`];
      return r.status === 404
        ? []
        : [`GET status: HTTP ${r.status}; expected 404 when ${why} (spec ${spec})`];
    });
  };
}

/** The cases of `conform platform`, in the order they run. */
export function buildPlatformCases(options: PlatformSuiteOptions): ConformCase[] {
  return buildPlatformSuite(options).cases;
}

/**
 * The cases, and `cleanup()` for after them: on a platform with the svc control API it closes
 * the chats the cases opened, so a simulator's agent console does not answer a synthetic
 * customer next (its "last active customer").
 */
export function buildPlatformSuite(options: PlatformSuiteOptions): {
  cases: ConformCase[];
  /** closes the chats the cases left open; the ids of those it closed */
  cleanup: () => Promise<number[]>;
  /**
   * the chat of each customer the cases wrote as (sender.id -> chat id), from the control
   * API's chat list; empty without one
   */
  chatsOfCustomers: () => Promise<Map<string, number>>;
} {
  const opened = new Set<string>();
  const parts = parseChannelUrl(options.channelUrl);
  const url = `${parts.base}/${parts.randomString}/${parts.publicId}`;
  const flipped = `${parts.randomString.slice(0, -1)}${parts.randomString.endsWith('A') ? 'B' : 'A'}`;
  const run: PlatformRun = {
    options,
    url,
    base: parts.base,
    sim: { problem: 'the platform exposes no svc control API (GET /_sim/state)' },
    chatSender(tag) {
      const who = sender(tag);
      opened.add(who.id);
      return who;
    },
    accepted: (name, body, spec) => async () => {
      const r = await post(options, url, body);
      return r.status === 200
        ? []
        : [
            `${name}: HTTP ${r.status} ${quote(r.body, 80)}; expected 200 (spec ${spec})${r.status === 404 ? CHECK_URL : ''}`,
          ];
    },
  };
  const cases: ConformCase[] = [
    {
      name: 'unknown public id',
      spec: ['4.1', '7.1'],
      run: expect404(
        options,
        `${parts.base}/${parts.randomString}/${parts.publicId}-svc-unknown`,
        'no channel has that public id',
        '4.1, 7.1',
      ),
    },
    {
      name: 'wrong random string',
      spec: ['1.3', '4.1', '5.1'],
      run: expect404(
        options,
        `${parts.base}/${flipped}/${parts.publicId}`,
        "the random string is not the channel's",
        '4.1, 5.1',
      ),
    },
    statusCase(run),
    {
      name: 'text message accepted',
      spec: ['2.1', '4.1'],
      async run(ctx) {
        const body = {
          sender: { ...run.chatSender('text'), name: 'Conform Customer' },
          message: { type: 'text', text: 'Hello' },
        };
        await ctx.check('POST text: 200', run.accepted('POST text', body, '4.1'));
      },
    },
    longTextCase(run),
    emptySenderCase(run),
    mediaCase(run),
    buildPageCase({
      clock: options.clock,
      control: () => run.sim.control,
      controlProblem: () => run.sim.problem,
      newVisitor: () => run.chatSender('page').id,
      ...compact({ journal: options.journal, handedOver: options.handedOver }),
    }),
    buildOfflineFormCase({
      clock: options.clock,
      control: () => run.sim.control,
      controlProblem: () => run.sim.problem,
      ...(options.journal === undefined ? {} : { journal: options.journal }),
    }),
    buildRedeliveryCase({
      ...options,
      channelUrl: url,
      publicId: parts.publicId,
      control: () => run.sim.control,
      controlProblem: () => run.sim.problem,
      newSender: () => run.chatSender('redelivery').id,
    }),
  ];
  return { cases, ...housekeeping(() => run.sim.control, opened, options.clock) };
}

/** a 404 on the channel URL itself is most likely a mistyped --channel-url, not the platform */
const CHECK_URL =
  ' (the channel URL given answers 404: check --channel-url, its random string and public id)';

/** What the cases of one `conform platform` run share. */
interface PlatformRun {
  options: PlatformSuiteOptions;
  /** the channel URL, rebuilt from its parts */
  url: string;
  base: string;
  /** the svc control API the status case found, or why there is none */
  sim: { control?: SimControl | undefined; problem: string };
  /** a fresh customer whose chat the cleanup closes */
  chatSender(tag: string): { id: string };
  /** a check that POSTing `body` to the channel is answered 200 */
  accepted(name: string, body: unknown, spec: string): () => Promise<string[]>;
}

/** GET status answers 0 or 1 (spec 3); it also looks for the svc control API once. */
function statusCase(run: PlatformRun): ConformCase {
  const { options, url } = run;
  return {
    name: 'status body 0 or 1',
    spec: ['3', '4.1'],
    async run(ctx) {
      const found = await findSimControl(run.base, options.clock, options.controlToken);
      if (typeof found === 'string') run.sim.problem = found;
      else run.sim.control = found;
      await ctx.check('GET status', async () => {
        const r = await getText({
          url: `${url}/status`,
          timeoutMs: TIMEOUT_MS,
          clock: options.clock,
        });
        if (!r.ok) return [`GET status: ${r.message}`];
        if (r.status !== 200)
          return [
            `GET status: HTTP ${r.status}; expected 200 (spec 4.1)${r.status === 404 ? CHECK_URL : ''}`,
          ];
        const body = r.body.trim();
        return body === '0' || body === '1'
          ? []
          : [`GET status: body ${JSON.stringify(quote(r.body, 40))}; expected 0 or 1 (spec 3)`];
      });
    },
  };
}

/** Text over 1000 code points is taken and delivered cut (spec 2.1, 8). */
function longTextCase(run: PlatformRun): ConformCase {
  const { options } = run;
  return {
    name: 'text over 1000 characters is accepted and cut',
    spec: ['2.1', '7.1', '8'],
    async run(ctx) {
      // 998 letters and 3 emoji: 1001 code points; a cut must not split a surrogate pair
      const text = `${'x'.repeat(998)}😀😀😀`;
      const who = run.chatSender('long');
      await ctx.check(
        'POST 1001 characters: 200, no error',
        run.accepted('POST', { sender: who, message: { type: 'text', text } }, '2.1, 7.1'),
      );
      await ctx.check('delivered cut to 1000 code points', async () => {
        const control = run.sim.control;
        if (!control) return { skip: `${run.sim.problem}: the cut cannot be observed` };
        const lines = await readVisitorLines(control, who.id, options.clock);
        const last = lines.at(-1);
        if (last === undefined)
          return [
            'the message did not reach the agent (spec 2.1: longer text is cut, not refused)',
          ];
        const points = Array.from(last);
        return points.length === 1000 && last === Array.from(text).slice(0, 1000).join('')
          ? []
          : [
              `message.text: delivered ${points.length} code points; expected the first 1000 (spec 2.1, 8)`,
            ];
      });
    },
  };
}

/** A message with an empty sender.id is not sent on (spec 2.1, 7.1). */
function emptySenderCase(run: PlatformRun): ConformCase {
  const { options, url } = run;
  return {
    name: 'empty sender.id is not delivered',
    spec: ['2.1', '7.1'],
    async run(ctx) {
      const before = run.sim.control ? await countChats(run.sim.control, options.clock) : 0;
      await ctx.check('POST with sender.id "": no server error', async () => {
        const r = await post(options, url, {
          sender: { id: '' },
          message: { type: 'text', text: 'lost' },
        });
        return r.status < 500
          ? []
          : [
              `POST: HTTP ${r.status}; an empty sender.id means the message is not sent (spec 2.1, 7.1), not a server error`,
            ];
      });
      await ctx.check('not delivered to an agent', async () => {
        const control = run.sim.control;
        if (!control) return { skip: `${run.sim.problem}: delivery cannot be observed` };
        const after = await countChats(control, options.clock);
        return after === before
          ? []
          : [
              'a chat was opened for a message with an empty sender.id; it must not be sent (spec 2.1, 7.1)',
            ];
      });
    },
  };
}

/** Photo, location and typing notices are taken (spec 2.3, 2.4). */
function mediaCase(run: PlatformRun): ConformCase {
  return {
    name: 'media and typing accepted',
    spec: ['2.3', '2.4', '4.1'],
    async run(ctx) {
      const who = run.chatSender('media');
      const photo = {
        type: 'photo',
        file: 'https://files.example.com/svc-conform/p.jpg',
        file_name: 'p.jpg',
        file_size: 1024,
      };
      const sent: Array<[string, unknown, string]> = [
        ['photo', photo, '2.4'],
        ['location', { type: 'location', latitude: 52.52, longitude: 13.4 }, '2.4'],
        ['typein', { type: 'typein' }, '2.3'],
        ['typeout', { type: 'typeout' }, '2.3'],
      ];
      for (const [name, message, spec] of sent)
        await ctx.check(
          `${name}: 200`,
          run.accepted(`POST ${name}`, { sender: who, message }, spec),
        );
    },
  };
}

/**
 * After the cases, on a platform with the svc control API: close the chats they opened, and
 * the chat of each of their customers (for the invariants, observed.ts). Best effort: a
 * failure here fails no case.
 */
function housekeeping(
  controlOf: () => SimControl | undefined,
  opened: ReadonlySet<string>,
  clock: Clock,
): { cleanup: () => Promise<number[]>; chatsOfCustomers: () => Promise<Map<string, number>> } {
  const cleanup = async (): Promise<number[]> => {
    const control = controlOf();
    const closed: number[] = [];
    if (control === undefined || opened.size === 0) return closed;
    try {
      for (const chat of await readChats(control, clock)) {
        const senderId = chat.customer?.senderId;
        if (senderId === undefined || !opened.has(senderId) || chat.mode === 'closed') continue;
        if (chat.id !== undefined) closed.push(chat.id);
        await postJson({
          url: `${control.base}/_sim/chats/${chat.id}/close`,
          body: '{}',
          headers: control.headers,
          timeoutMs: TIMEOUT_MS,
          clock,
        });
      }
    } catch {
      // the verdicts stand; an open synthetic chat is only a nuisance
    }
    return closed;
  };
  const chatsOfCustomers = async (): Promise<Map<string, number>> => {
    const control = controlOf();
    const chats = new Map<string, number>();
    if (control === undefined) return chats;
    try {
      for (const chat of await readChats(control, clock)) {
        const senderId = chat.customer?.senderId;
        if (senderId !== undefined && opened.has(senderId) && chat.id !== undefined)
          chats.set(senderId, chat.id);
      }
    } catch {
      // without the chat list the channel records stay outside any chat
    }
    return chats;
  };
  return { cleanup, chatsOfCustomers };
}

async function readChats(
  control: SimControl,
  clock: Clock,
): Promise<
  Array<{
    id?: number;
    mode?: string;
    customer?: { senderId?: string };
    lines?: Array<{ type?: string; text?: string }>;
  }>
> {
  const r = await getText({
    url: `${control.base}/_sim/chats`,
    headers: control.headers,
    timeoutMs: TIMEOUT_MS,
    clock,
  });
  if (!r.ok || r.status !== 200)
    throw new Error(`GET /_sim/chats: ${r.ok ? `HTTP ${r.status}` : r.message}`);
  return (JSON.parse(r.body) as { chats: [] }).chats;
}

async function readVisitorLines(
  control: SimControl,
  senderId: string,
  clock: Clock,
): Promise<string[]> {
  const chats = await readChats(control, clock);
  return chats
    .filter((c) => c.customer?.senderId === senderId)
    .flatMap((c) => c.lines ?? [])
    .filter((l) => l.type === 'visitor' && typeof l.text === 'string')
    .map((l) => l.text as string);
}

async function countChats(control: SimControl, clock: Clock): Promise<number> {
  return (await readChats(control, clock)).length;
}
