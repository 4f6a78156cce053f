import type { Clock } from '../../clock.js';
import { getText } from '../../http/client.js';
import type { Journal } from '../../journal/index.js';
import { attachPage, type Page, type PagePost } from '../page.js';
import type { ConformCase, CaseContext } from './case.js';
import { recordPost } from './observed.js';
import { controlPost } from './platform-offline.js';
import { whyNoControl, type SimControl } from './platform-redelivery.js';

/*
 * The page's callbacks against the pushes they reflect (spec 4.5, 6.4; the callback-order
 * invariant, src/trace/rules.ts). Interface C is a JavaScript API inside the platform's page
 * script: a real platform gives conform no wire to attach a page to. An svc simulator serves
 * its page script's channel (GET/POST /_sim/widget/events, src/platform/widget/service.ts), so
 * against one conform attaches the page-script double replay's page steps use
 * (src/conversation/page.ts) as a visitor: the visitor writes, asks to be called back, the
 * call ends (svc_onCallEnd), the agent accepts and answers through the control API
 * (svc_onAccept). The page reports each callback with the stream id of the push it reflects;
 * every POST of the page is in the run's observations, in the visitor's chat, where the
 * invariant reads them. The chat is closed with the others after the cases.
 */

export interface PageCaseOptions {
  clock: Clock;
  control: () => SimControl | undefined;
  /** why `control()` is undefined: no control API, or one that wants a token */
  controlProblem?: () => string;
  /** the run's observations (observed.ts) */
  journal?: Journal;
  /** a fresh visitor id: its chat is closed after the cases and its records put in it */
  newVisitor: () => string;
  /** waits until conform's bot handed over the chat where this text was written (platform-bot.ts) */
  handedOver?: (customerText: string) => Promise<void>;
}

const TIMEOUT_MS = 10_000;
/** Protocol ms a callback is waited for (the call below takes 300). */
const CALLBACK_WAIT_MS = 10_000;
/**
 * The pace of the call (protocol ms between its statuses, and of the talk): a call at the
 * simulator's own pace (5 s steps, 30 s talk) would cost every run 40 s.
 */
const CALL_PACE_MS = 100;

/** What the visitor and the agent write. */
export const PAGE_TEXTS = {
  visitor: 'Please call me back',
  agent: 'Called you back: anything else?',
} as const;

const PHONE = '+49 30 1234567';

const CHECKS = {
  callEnd: 'svc_onCallEnd once the call ended',
  accept: 'svc_onAccept once the agent accepted',
  reported: 'each callback reported with the stream id of its push',
} as const;

/**
 * spec 4.5, 6.4: a page on the simulator's widget channel; the callbacks it ran, each
 * reported with its push's stream id, for the callback-order invariant.
 */
export function buildPageCase(options: PageCaseOptions): ConformCase {
  return {
    name: 'page callbacks follow the pushes',
    spec: ['4.5', '6.4'],
    async run(ctx) {
      const control = options.control();
      const unusable = control ? await widgetProblem(options, control) : undefined;
      if (!control || unusable !== undefined) {
        const why =
          unusable ??
          whyNoControl(
            options.controlProblem?.(),
            'the call the page asks for cannot be paced, nor the agent made to accept',
            "the platform exposes no svc control API (GET /_sim/state) nor svc-cli's widget channel (GET /_sim/widget/events): interface C is a JavaScript API inside the platform's page script (spec 4.5, 6.4), with no wire conform could attach a page to on a real platform",
          );
        for (const name of Object.values(CHECKS)) ctx.skip(name, why);
        return;
      }
      const paced = await controlPost(options, control, '/_sim/calls/timing', {
        stepMs: CALL_PACE_MS,
        talkMs: CALL_PACE_MS,
      });
      const before = paced.ok && paced.status === 200 ? paceOf(paced.body) : undefined;
      if (before === undefined) {
        const why = `the simulator cannot pace its calls (POST /_sim/calls/timing answered ${paced.ok ? `HTTP ${paced.status}` : paced.message}), and a call at its own pace takes 40 s`;
        for (const name of Object.values(CHECKS)) ctx.skip(name, why);
        return;
      }
      try {
        await converse(ctx, options, control);
      } finally {
        await controlPost(options, control, '/_sim/calls/timing', before);
      }
    },
  };
}

/** Why the simulator's widget channel cannot be used; undefined when it can. */
async function widgetProblem(
  options: PageCaseOptions,
  control: SimControl,
): Promise<string | undefined> {
  const r = await getText({
    url: `${control.base}/_sim/widget/visitors`,
    timeoutMs: TIMEOUT_MS,
    clock: options.clock,
  });
  if (r.ok && r.status === 200) return undefined;
  return `the simulator serves no widget channel (GET /_sim/widget/visitors answered ${r.ok ? `HTTP ${r.status}` : r.message}), so no page can be attached`;
}

/** The pace a `POST /_sim/calls/timing` answer says was set before. */
function paceOf(body: string): { stepMs: number; talkMs: number } | undefined {
  try {
    const { before } = JSON.parse(body) as { before?: { stepMs?: unknown; talkMs?: unknown } };
    const { stepMs, talkMs } = before ?? {};
    return typeof stepMs === 'number' && typeof talkMs === 'number'
      ? { stepMs, talkMs }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The page's conversation: the visitor writes and is called back; the agent accepts. */
async function converse(
  ctx: CaseContext,
  options: PageCaseOptions,
  control: SimControl,
): Promise<void> {
  const { clock } = options;
  const visitorId = options.newVisitor();
  const ran: string[] = [];
  const reports: PagePost[] = [];
  const page: Page = await attachPage({
    baseUrl: control.base,
    clock,
    visitorId,
    onCallback: (name) => void ran.push(name),
    onPost(post) {
      const type = (post.body as { type?: unknown } | undefined)?.type;
      if (type === 'callback') reports.push(post);
      recordPost(options.journal, clock, {
        ...post,
        iface: 'widget',
        ...(typeof type === 'string' ? { kind: `widget.${type}` } : {}),
      });
    },
  });
  const ranAfter = async (name: string): Promise<boolean> => {
    const until = clock.now() + CALLBACK_WAIT_MS;
    while (!ran.includes(name) && clock.now() < until) await clock.sleep(20);
    await page.flush();
    return ran.includes(name);
  };
  try {
    page.say(PAGE_TEXTS.visitor);
    await page.flush();
    await ctx.check(CHECKS.callEnd, async () => {
      const called = page.call(PHONE) as { result?: unknown; reason?: unknown };
      if (called?.result !== 'ok')
        return [`svc_api.startCall(${JSON.stringify(PHONE)}): ${JSON.stringify(called)}`];
      return (await ranAfter('svc_onCallEnd'))
        ? []
        : [
            `svc_onCallEnd did not run within ${CALLBACK_WAIT_MS / 1000} s of the call the visitor asked for (spec 6.4: it runs when a phone call ends)`,
          ];
    });
    await ctx.check(CHECKS.accept, async () => {
      await options.handedOver?.(PAGE_TEXTS.visitor);
      const sent = await controlPost(options, control, '/_sim/agent/message', {
        customerId: visitorId,
        text: PAGE_TEXTS.agent,
        wait: false,
      });
      if (!sent.ok || sent.status >= 300)
        return [
          `POST /_sim/agent/message: ${sent.ok ? `HTTP ${sent.status} ${sent.body}` : sent.message}`,
        ];
      return (await ranAfter('svc_onAccept'))
        ? []
        : [
            `svc_onAccept did not run within ${CALLBACK_WAIT_MS / 1000} s of the agent's answer (spec 6.4: it runs when an agent presses Reply)`,
          ];
    });
    await ctx.check(CHECKS.reported, () => describeReports(reports));
  } finally {
    page.close();
  }
}

/** The callback reports, each answered 200 `{ok: true}`: a note with their stream ids. */
function describeReports(reports: readonly PagePost[]): string[] | { note: string } {
  const problems: string[] = [];
  const seen: string[] = [];
  for (const { body, outcome } of reports) {
    const { name, eventId, event } = body as { name?: unknown; eventId?: unknown; event?: unknown };
    const what = `${String(name)} (push ${String(eventId)}, ${String(event)})`;
    if (!outcome.ok || outcome.status !== 200)
      problems.push(
        `the report of ${what} was answered ${outcome.ok ? `HTTP ${outcome.status} ${outcome.body}` : outcome.message}; expected 200`,
      );
    else seen.push(what);
  }
  if (problems.length > 0) return problems;
  if (seen.length === 0) return ['the page reported no callback'];
  return { note: `reported ${seen.join(', then ')}` };
}
