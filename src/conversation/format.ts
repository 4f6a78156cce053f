import { z } from 'zod';
import { WIDGET_METHODS } from '../contract/widget-protocol.js';
import { FAULT_SYNTAX, parseFault, type Fault } from '../faults/fault.js';
import { faultPlanFields } from '../faults/plan-file.js';
import { closestNames } from '../suggest.js';

/**
 * The conversation fixture format, version 1 (versioned, so an unknown version is an input error):
 * ordered, named steps across roles with partial-match expectations. Exported as JSON
 * Schema (`svc-cli schema --kind conversation`), so fixtures start with `$schema`.
 */
export const CONVERSATION_VERSION = 1;
/** Protocol ms an expectation waits for its payload when it sets no `within`. */
export const DEFAULT_WITHIN_MS = 15_000;

const fault = z
  .string()
  .describe(`a fault in --fault syntax: ${FAULT_SYNTAX}`)
  .transform((text, ctx): Fault => {
    const parsed = parseFault(text);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    return parsed.fault;
  });

/** What an embedded serving role does to its replies (the fault module's plan). */
const faultPlan = z
  .strictObject(faultPlanFields(fault))
  .describe('faults the embedded role injects into its replies');

const json = z.record(z.string(), z.unknown());
const sender = z.looseObject({ id: z.string().optional() }).describe('spec 2.1 sender fields');

const customerStep = z
  .strictObject({
    /** plain text (spec 2.1) */
    text: z.string().optional(),
    typing: z.enum(['start', 'stop']).optional(),
    /** a media message (spec 2.4): type plus its fields */
    media: z.looseObject({ type: z.string() }).optional(),
    /** the exact body to send, valid or not */
    raw: z.unknown().optional(),
    sender: sender.optional(),
  })
  .describe('the customer sends to the channel URL (spec 4.1)');

const agentStep = z
  .strictObject({
    text: z.string().optional(),
    typing: z.enum(['start', 'stop']).optional(),
    media: z.looseObject({ type: z.string() }).optional(),
    /** the customer's sender.id (default: the last active customer) */
    to: z.string().optional(),
    /** wait for the delivery verdict before the next step (default true) */
    wait: z.boolean().optional(),
  })
  .describe('an agent writes; the platform delivers to the integrator (spec 4.2)');

const pageStep = z
  .strictObject({
    /** the visitor writes in the widget (its first message opens the chat, spec 6.4) */
    say: z.string().min(1).optional().describe('the visitor writes in the widget'),
    /** svc_api.startCall(phone) (spec 4.5): the platform calls the visitor back */
    call: z.string().min(1).optional().describe('svc_api.startCall(phone): a call back'),
    /** any method of svc_api (spec 4.5), with `args`; its result is the step's value */
    api: z
      .enum(WIDGET_METHODS)
      .optional()
      .describe(
        'a method of svc_api (spec 4.5) the page calls with args: its result (or what its callback got) is the step value',
      ),
    args: z
      .array(z.unknown())
      .optional()
      .describe('the arguments of api, as the page passes them (default none)'),
    /** the visitor fills the contacts form (spec 6.4 svc_onIntroduction) */
    contacts: z
      .strictObject({
        name: z.string().optional(),
        email: z.string().optional(),
        phone: z.string().optional(),
      })
      .optional()
      .describe('the visitor fills the contacts form (svc_onIntroduction, hook chat_updated)'),
    /**
     * what the result of `call` or `api` must hold (partial match); without it a
     * `{result: "fail"}` fails the step
     */
    result: z
      .unknown()
      .optional()
      .describe(
        'what the result of call or api must hold (partial match); without it a {"result": "fail"} fails the step',
      ),
  })
  .refine(
    (page) =>
      [page.say, page.call, page.api, page.contacts].filter((v) => v !== undefined).length <= 1,
    { message: 'a page step does one of say, call, api, contacts (none: the page opens)' },
  )
  .refine((page) => page.args === undefined || page.api !== undefined, {
    message: 'args belong to api',
  })
  .refine(
    (page) => page.result === undefined || page.api !== undefined || page.call !== undefined,
    { message: 'result belongs to call or api' },
  )
  .describe(
    "the visitor on the site widget (interface C, spec 4.5, 6.4): the page-script double, attached to the simulator's widget channel on the first page step, reports each callback a push caused (POST /_sim/widget/events type callback), journaled in the push's chat for the callback-order invariant",
  );

/** A time budget: protocol ms, or a duration such as "2s", "1.5s", "500ms". */
const duration = z
  .union(
    [
      z.number().nonnegative(),
      z
        .string()
        .regex(/^\d+(\.\d+)?(ms|s)$/)
        .transform((text) => {
          const value = Number.parseFloat(text);
          return text.endsWith('ms') ? value : value * 1000;
        }),
    ],
    // one message for both branches: "expected number, received string" for "2" or "1m"
    // pointed away from the fix
    {
      error: (issue) =>
        `must be protocol ms (2000) or a string with ms or s ("2s", "500ms"), got ${JSON.stringify(issue.input)}`,
    },
  )
  .describe('protocol ms, or a duration such as "2s" or "500ms"');

/** Partial-match expectations on what each party saw. */
const expectation = z
  .strictObject({
    /** the agent message the integrator endpoint received (spec 2.2) */
    integrator: json.optional(),
    /** the event the bot provider received (spec 6.1) */
    bot: json.optional(),
    /** the hook event the receiver got (spec 6.2); a string names its event_name */
    hook: z.union([json, z.string().describe('the event_name alone: "chat_finished"')]).optional(),
    /** a simulator event (`svc-cli --json platform` lines) */
    event: json.optional(),
    /**
     * a callback the page script ran (spec 6.4); a string names it: "svc_onCallEnd";
     * an object matches `{name, args}`
     */
    page: z
      .union([json, z.string().describe('the callback alone: "svc_onAccept"')])
      .optional()
      .describe('a callback the page script ran (spec 6.4): "svc_onCallEnd" or {name, args}'),
    /**
     * protocol ms to wait for it (default DEFAULT_WITHIN_MS, 15000); with `after`, counted from
     * the end of that step: the payload must have come by then
     */
    within: duration.optional(),
    /** assert that nothing matching arrives within `within` */
    absent: z.boolean().optional(),
    /**
     * how many times the bot answered one event it was sent (spec 6.1, 8), counted once
     * `within` has passed
     */
    answers: z
      .strictObject({
        to: z
          .string()
          .optional()
          .describe(
            "the event's id (e.g. ${asked.id}); default the last CLIENT_MESSAGE the bot was sent",
          ),
        count: z
          .number()
          .int()
          .nonnegative()
          .describe(
            'BOT_MESSAGE and INVITE_AGENT the bot service accepted for its chat, over all its attempts',
          ),
      })
      .optional(),
    /**
     * the name of an earlier step: the payload must come after that step began, and within
     * `within` of its end (a time budget across interfaces)
     */
    after: z
      .string()
      .optional()
      .describe('the name of an earlier step the payload must follow, within `within` of its end'),
    /** dotted paths into the payload and the values they must match (`.length` counts) */
    where: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('dotted paths into the payload and their values: {"chat.messages.length": 3}'),
    /**
     * the order the parties saw things in, each `party:what` (`hook:<event_name>`,
     * `bot:<event>`, `integrator:<message.type>` or `integrator:agent-message` for any,
     * `event:<type>`, `page:<callback>`): the first of each must have come in this order
     */
    order: z
      .array(
        z.string().regex(/^(hook|bot|integrator|event|page):.+$/, {
          error: (issue) => orderLabelProblem(issue.input),
        }),
      )
      .min(2)
      .optional()
      .describe(
        'the order things came in across the interfaces: ["hook:chat_accepted", "integrator:agent-message"]',
      ),
  })
  .describe(
    'wait until a party saw a payload that matches partially (optionally after a named step, within a budget, where paths hold values), or until things came in a given order',
  );

const ORDER_PARTIES = ['hook', 'bot', 'integrator', 'event', 'page'];

/**
 * An `order` entry that is no `party:what` label, said with the label meant where one is
 * close (`hooks:chat_accepted`), else with the parties.
 * @example orderLabelProblem('hooks:chat_accepted') // '"hooks:chat_accepted" names no party "hooks" (did you mean "hook:chat_accepted"?)'
 */
function orderLabelProblem(given: unknown): string {
  const label = `party:what label, party one of ${ORDER_PARTIES.join(', ')} (e.g. hook:chat_accepted)`;
  if (typeof given !== 'string') return `must be a ${label}`;
  const colon = given.indexOf(':');
  if (colon === -1) return `${JSON.stringify(given)} is no ${label}`;
  const [party, what] = [given.slice(0, colon), given.slice(colon + 1)];
  const near = closestNames(party, ORDER_PARTIES, { maxDistance: 3 })[0];
  if (what === '' || near === undefined) return `${JSON.stringify(given)} is no ${label}`;
  return `${JSON.stringify(given)} names no party "${party}" (did you mean "${near}:${what}"?)`;
}

const stepBase = {
  name: z.string().optional().describe('a name; later steps reference its result as ${name.path}'),
};

export const stepSchema = z.union([
  z.strictObject({
    ...stepBase,
    customer: customerStep,
    /** the channel's HTTP answer */
    response: z
      .strictObject({ status: z.number().int().optional(), body: z.unknown().optional() })
      .optional(),
  }),
  z.strictObject({
    ...stepBase,
    agent: agentStep,
    /** the delivery verdict (spec 8): result, attempts, elapsedMs ... */
    delivery: json.optional(),
  }),
  z.strictObject({ ...stepBase, agents: z.enum(['online', 'offline']) }),
  z.strictObject({ ...stepBase, close: z.strictObject({ customer: z.string().optional() }) }),
  z.strictObject({
    ...stepBase,
    control: z.strictObject({
      method: z.enum(['GET', 'POST']),
      path: z.string(),
      body: z.unknown().optional(),
    }),
    response: z
      .strictObject({ status: z.number().int().optional(), body: z.unknown().optional() })
      .optional(),
  }),
  z.strictObject({
    ...stepBase,
    /** the bot provider posts this event to the platform's bot service itself (spec 4.3) */
    bot: z
      .looseObject({ event: z.string() })
      .describe('an event the bot posts to {bot_service_url}/webhooks/<provider_id>/<token>'),
    /** the bot service's HTTP answer (default status 200) */
    response: z
      .strictObject({ status: z.number().int().optional(), body: z.unknown().optional() })
      .optional(),
  }),
  z.strictObject({
    ...stepBase,
    /** the platform sends a bot event again: one more attempt, same body and id (spec 8) */
    redeliver: z
      .strictObject({
        to: z.literal('bot'),
        id: z
          .string()
          .optional()
          .describe('the event id (e.g. ${asked.id}); default the last CLIENT_MESSAGE'),
      })
      .describe("the platform's next attempt at an event it sent the bot, as after a lost 200"),
    /** the bot's HTTP answer to it (default status 200) */
    response: z
      .strictObject({ status: z.number().int().optional(), body: z.unknown().optional() })
      .optional(),
  }),
  z.strictObject({ ...stepBase, page: pageStep }),
  z.strictObject({
    ...stepBase,
    advance: z.number().nonnegative().describe('protocol ms to move the clock'),
  }),
  z.strictObject({ ...stepBase, expect: expectation }),
]);

export const conversationSchema = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(CONVERSATION_VERSION),
    name: z.string().min(1),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    /** the spec sections this conversation exercises */
    spec: z.array(z.string()).optional(),
    setup: z
      .strictObject({
        agents: z.enum(['online', 'offline']).optional(),
        /** answer contract violations 400 (default) or 200 */
        strict: z.boolean().optional(),
        channel: z
          .strictObject({ id: z.string().optional(), chunked: z.boolean().optional() })
          .optional(),
        integrator: z.strictObject({ faults: faultPlan.optional() }).optional(),
        bot: z
          .strictObject({
            /** a bot-sim script file (relative to the fixture), or omitted for the default script */
            script: z.string().optional(),
            faults: faultPlan.optional(),
            token: z.string().optional(),
            providerId: z.string().optional(),
            /** docs: the public Bot API's CHAT_CLOSED and CLIENT_INFO too (--bot-events docs) */
            events: z.enum(['spec', 'docs']).optional(),
          })
          .optional(),
        page: z
          .strictObject({
            visitor: z
              .string()
              .min(1)
              .optional()
              .describe("the page's visitor id (default visitor-1); agent steps reach it with to"),
            hold: z
              .strictObject({
                event: z
                  .string()
                  .min(1)
                  .describe('the pushed event type held back: agent_accepted'),
                until: z
                  .string()
                  .regex(/^[a-z_]+(:[a-z_]+)?$/, 'a pushed event type, or type:status')
                  .describe('handed over once this came: call_status:end'),
              })
              .optional()
              .describe(
                "a planted page bug: the page's event handling keeps one pushed event back until another came, so its callbacks run out of the pushes' order (the callback-order invariant fails)",
              ),
          })
          .optional()
          .describe('the site widget page of the page steps (interface C)'),
        hooks: z
          .strictObject({
            /** replies by event name (spec 6.2), default: valid replies */
            replies: z.record(z.string(), z.unknown()).optional(),
            faults: faultPlan.optional(),
          })
          .optional(),
      })
      .optional(),
    steps: z.array(stepSchema).min(1),
  })
  .describe('svc-cli conversation: ordered steps across the roles with expectations');

/** The tag of a fixture whose bot side was recorded from a real bot (`record to-fixture`). */
export const RECORDED_BOT_TAG = 'recorded-bot';

export type Conversation = z.output<typeof conversationSchema>;
export type ConversationInput = z.input<typeof conversationSchema>;
export type Step = z.output<typeof stepSchema>;
