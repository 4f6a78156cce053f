import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { postJson, type PostOutcome } from '../../http/client.js';
import type { Journal } from '../../journal/index.js';
import { quote, type ConformCase } from './case.js';
import { recordPost } from './observed.js';
import { whyNoControl, type SimControl } from './platform-redelivery.js';

/*
 * The offline form while agents are online (spec 3: the status body is 1 while agents are
 * online; "Offline form sent" -> hook offline_message; spec 4.5 sendOfflineMessage answers
 * fail "with the reason sending is impossible"). The form comes from the page (interface C),
 * which has no wire on a real platform; an svc simulator serves its page script's channel
 * (POST /_sim/widget/events, src/platform/widget/service.ts), so against one conform sets
 * agents online through the control API and sends the form there as the page would. Both
 * requests are journaled: the hook the platform must not send is the offline-message
 * invariant's business (src/trace/rules.ts), judged on the run's observations.
 */

export interface OfflineFormCaseOptions {
  clock: Clock;
  control: () => SimControl | undefined;
  /** why `control()` is undefined: no control API, or one that wants a token */
  controlProblem?: () => string;
  /** the run's observations (observed.ts) */
  journal?: Journal;
}

const TIMEOUT_MS = 10_000;
/** Protocol ms an offline_message hook is waited for before agents go offline again. */
const HOOK_WAIT_MS = 1000;

const CHECK = 'offline form refused while agents are online';

/** The form the page sends (spec 4.5 sendOfflineMessage's strings). */
const FORM = {
  name: 'Conform Visitor',
  email: 'conform@example.invalid',
  message: 'Offline form sent while agents are online',
};

/**
 * spec 3, 4.5, 6.2: agents online (control API), the offline form through the simulator's
 * widget channel: it must be refused, and no offline_message hook follow (the invariant).
 */
export function buildOfflineFormCase(options: OfflineFormCaseOptions): ConformCase {
  return {
    name: 'offline form while agents are online',
    spec: ['3', '4.5', '6.2'],
    async run(ctx) {
      const control = options.control();
      if (!control) {
        ctx.skip(
          CHECK,
          whyNoControl(
            options.controlProblem?.(),
            'agents cannot be set online to send the offline form',
            "the platform exposes no svc control API (POST /_sim/agents) nor svc-cli's widget channel (POST /_sim/widget/events): the offline form comes from the page script (spec 4.5), which has no wire conform could reach on a real platform",
          ),
        );
        return;
      }
      const wasOnline = control.state.agentsOnline;
      const online = await controlPost(options, control, '/_sim/agents', { online: true });
      if (!online.ok || online.status !== 200) {
        ctx.skip(
          CHECK,
          `agents could not be set online: POST /_sim/agents answered ${online.ok ? `HTTP ${online.status}` : online.message}`,
        );
        return;
      }
      try {
        await ctx.check(CHECK, () => sendForm(options, control));
      } finally {
        if (wasOnline === false) {
          // the rule reads the last availability before the hook: one sent late must not
          // follow the restore
          await hookSeen(options);
          await controlPost(options, control, '/_sim/agents', { online: false });
        }
      }
    },
  };
}

/** A control API POST (journaled as `control`), with the control token when there is one. */
export async function controlPost(
  options: { clock: Clock; journal?: Journal | undefined },
  control: SimControl,
  path: string,
  body: unknown,
  iface: 'control' | 'widget' = 'control',
  kind?: string,
): Promise<PostOutcome> {
  const { clock } = options;
  const url = `${control.base}${path}`;
  const startedAt = clock.now();
  const outcome = await postJson({
    url,
    headers: control.headers,
    body: JSON.stringify(body),
    timeoutMs: TIMEOUT_MS,
    clock,
  });
  recordPost(options.journal, clock, {
    url,
    body,
    startedAt,
    outcome,
    iface,
    ...(kind === undefined ? {} : { kind }),
  });
  return outcome;
}

/** The page's offline_message event; the answer must be the refusal `{ok: false, error}`. */
async function sendForm(options: OfflineFormCaseOptions, control: SimControl) {
  const event = {
    type: 'offline_message',
    visitorId: `svc-conform-offline-${randomUUID().slice(0, 8)}`,
    message: FORM,
  };
  const sent = await controlPost(
    options,
    control,
    '/_sim/widget/events',
    event,
    'widget',
    'widget.offline_message',
  );
  if (!sent.ok) return [`POST /_sim/widget/events: ${sent.message}`];
  if (sent.status === 404)
    return {
      skip: 'the simulator serves no widget channel (POST /_sim/widget/events: HTTP 404), so the page cannot send the offline form',
    };
  let reply: { ok?: unknown; error?: unknown } = {};
  try {
    reply = JSON.parse(sent.body) as typeof reply;
  } catch {
    // judged below as an answer that is not the refusal
  }
  if (sent.status === 200 && reply.ok === false)
    return { note: `refused: ${typeof reply.error === 'string' ? reply.error : '(no reason)'}` };
  return [
    `the offline form was ${sent.status === 200 && reply.ok === true ? 'taken' : `answered HTTP ${sent.status} ${quote(sent.body, 80)}`} while agents were online (POST /_sim/agents {"online":true} answered 200); expected it refused (spec 3: the widget shows the chat while agents are online; spec 4.5: sendOfflineMessage fails with the reason)`,
  ];
}

/** Waits (at most HOOK_WAIT_MS) until the run's observations hold an offline_message hook. */
async function hookSeen(options: OfflineFormCaseOptions): Promise<void> {
  const { clock, journal } = options;
  if (!journal) return;
  const until = clock.now() + HOOK_WAIT_MS;
  const seen = (): boolean =>
    journal.entries().some((r) => r.iface === 'hook' && r.kind === 'hook.offline_message');
  while (!seen() && clock.now() < until) await clock.sleep(50);
}
